import { messages, paths, withId } from '@petreg/contract';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { firstError } from '../../app/api';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { useShortLinkTarget } from './api';
import { MicrochipLookupPage } from './MicrochipLookupPage';
import { PetProfile } from './PetProfilePage';

/** What the lookup page says when a short link led nowhere. */
export interface ShortLinkFailure {
  shortLinkError: string;
}

/**
 * short/:id: the address on a collar tag; it shows the pet's profile and moves to the profile's own
 * address (spec 4, short link). A worn or mistyped link leaves a finder, who has no account, on the
 * public lookup page with Invalid Short URL (spec 8's words), where the chip number can be looked up
 * and the support line called. The server renders the same, so both read before any script runs.
 */
export function ShortLinkPage() {
  const code = useParams().id ?? '';
  const navigate = useNavigate();
  const target = useShortLinkTarget(code);
  const failure = target.data === null ? messages.invalidShortUrl : target.isError ? firstError(target.error, messages.invalidShortUrl) : null;

  useEffect(() => {
    if (target.data) {
      void navigate(withId(paths.petProfiles, target.data), { replace: true });
    } else if (failure) {
      const state: ShortLinkFailure = { shortLinkError: failure };
      void navigate(paths.microchipLookup, { replace: true, state });
    }
  }, [navigate, target.data, failure]);

  if (target.data) return <PetProfile id={target.data} />;
  if (failure) return <MicrochipLookupPage shortLinkError={failure} />;
  return <CenteredSpinner fullScreen />;
}
