import { messages, paths, withId } from '@petreg/contract';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { firstError } from '../../app/api';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { useShortLinkTarget } from './api';

/** What the lookup page says when a short link led nowhere. */
export interface ShortLinkFailure {
  shortLinkError: string;
}

/**
 * short/:id: the address on a collar tag; it leads to the pet's profile (spec 4, short link). A worn
 * or mistyped link leaves a finder, who has no account, on the public lookup page with Invalid Short
 * URL (spec 8's words), where the chip number can be looked up and the support line called.
 */
export function ShortLinkPage() {
  const code = useParams().id ?? '';
  const navigate = useNavigate();
  const target = useShortLinkTarget(code);

  useEffect(() => {
    if (target.data) {
      void navigate(withId(paths.petProfiles, target.data), { replace: true });
    } else if (target.isError) {
      const state: ShortLinkFailure = { shortLinkError: firstError(target.error, messages.invalidShortUrl) };
      void navigate(paths.microchipLookup, { replace: true, state });
    }
  }, [navigate, target.data, target.isError, target.error]);

  return <CenteredSpinner fullScreen />;
}
