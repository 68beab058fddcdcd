import { messages, paths, ui, withId } from '@petreg/contract';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { toast } from '../../app/toast';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { useShortLinkTarget } from './api';

/** short/:id: the address on a collar tag; it leads to the pet's profile (spec 4, short link). */
export function ShortLinkPage() {
  const code = useParams().id ?? '';
  const navigate = useNavigate();
  const target = useShortLinkTarget(code);

  useEffect(() => {
    if (target.data) {
      void navigate(withId(paths.petProfiles, target.data), { replace: true });
    } else if (target.isError) {
      toast(messages.invalidShortUrl, { variant: 'error', duration: ui.invalidShortUrlToastMs });
      void navigate(paths.signIn, { replace: true });
    }
  }, [navigate, target.data, target.isError]);

  return <CenteredSpinner fullScreen />;
}
