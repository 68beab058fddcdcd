import { paths } from '@petreg/contract';
import { Paper, Typography } from '@mui/material';
import { useEffect } from 'react';
import { usePublicSettings } from '../../app/settings';
import { MicrochipLookup } from './MicrochipLookup';
import { PublicLayout } from './PublicLayout';

/** Spec 2.5: outside the production host the lookup page moves to the production host's own. */
function useProductionHost() {
  const settings = usePublicSettings();
  const host = settings.data?.productionHost;
  useEffect(() => {
    if (host && host !== window.location.host.toLowerCase()) {
      window.location.replace(`${window.location.protocol}//${host}${paths.microchipLookup}${window.location.search}`);
    }
  }, [host]);
}

/** microchip-lookup: tells anyone whether a chip is registered here, and whose registry to try otherwise. */
export function MicrochipLookupPage() {
  useProductionHost();
  return (
    <PublicLayout>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 } }}>
        <Typography variant="h1" gutterBottom>
          Microchip Lookup
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          Found a pet? Enter the number a microchip scanner shows to see whether the chip is registered with us.
        </Typography>
        <MicrochipLookup />
      </Paper>
    </PublicLayout>
  );
}
