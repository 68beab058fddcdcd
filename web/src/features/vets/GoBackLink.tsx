import { ArrowBack } from '@mui/icons-material';
import { Link } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';

/**
 * Back to where the owner came from (the dashboard, a pet, the search results), or to `fallback`
 * when the page was opened directly and there is nowhere in the portal to go back to.
 */
export function GoBackLink({ fallback, children = 'Go back' }: { fallback: string; children?: ReactNode }) {
  const navigate = useNavigate();
  // The first page of a visit has the key 'default'.
  const cameFromPortal = useLocation().key !== 'default';
  return (
    <Link
      component={RouterLink}
      to={fallback}
      onClick={(event) => {
        if (!cameFromPortal) return;
        event.preventDefault();
        void navigate(-1);
      }}
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
    >
      <ArrowBack fontSize="small" aria-hidden />
      {children}
    </Link>
  );
}
