import { Alert, AlertTitle, Link, Paper, Typography } from '@mui/material';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { usePublicSettings, useSupportContact } from '../../app/settings';
import { Island } from './Island';
import { productionLookupAddress } from './productionHost';
import { PublicLayout } from './PublicLayout';
import type { ShortLinkFailure } from './ShortLinkPage';

/** Spec 2.5: outside the production host the lookup page moves to the production host's own. */
function useProductionHost() {
  const settings = usePublicSettings();
  const host = settings.data?.productionHost;
  useEffect(() => {
    const address = productionLookupAddress(host);
    if (address) window.location.replace(address);
  }, [host]);
}

/**
 * microchip-lookup: tells anyone whether a chip is registered here, and whose registry to try otherwise.
 * `shortLinkError`: why the short link it is shown for led nowhere (otherwise read from the navigation).
 */
export function MicrochipLookupPage(props: Partial<ShortLinkFailure>) {
  useProductionHost();
  const navigation = useLocation().state as ShortLinkFailure | null;
  const shortLinkError = props.shortLinkError ?? navigation?.shortLinkError;
  return (
    <PublicLayout>
      {shortLinkError && <ShortLinkNotice message={shortLinkError} />}
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 } }}>
        <Typography variant="h1" gutterBottom>
          Microchip Lookup
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          Found a pet? Enter the number a microchip scanner shows to see whether the chip is registered with us.
        </Typography>
        <Island name="lookup" props={{}} />
      </Paper>
    </PublicLayout>
  );
}

/** A collar tag's short link that led nowhere: what a finder can do instead. */
function ShortLinkNotice({ message }: { message: string }) {
  const contact = useSupportContact();
  return (
    <Alert severity="error" sx={{ mb: 3 }}>
      <AlertTitle>{message}</AlertTitle>
      The link on the tag may be worn or mistyped. Look the pet's microchip number up below (any vet or shelter can read it)
      {contact ? (
        <>
          , or call our 24/7 support line at{' '}
          <Link href={contact.phoneHref} sx={{ fontWeight: 600 }}>
            {contact.phone}
          </Link>
          .
        </>
      ) : (
        ', or call our 24/7 support line.'
      )}
    </Alert>
  );
}
