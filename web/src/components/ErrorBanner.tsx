import { Alert, Collapse } from '@mui/material';
import { useEffect, useState, type ReactNode } from 'react';

/**
 * A red banner that hides itself after `durationMs` (spec 8: 3 to 10 seconds). Give it a `key` that
 * changes with each failure so a repeated failure shows it again.
 */
export function ErrorBanner({ children, durationMs }: { children: ReactNode; durationMs: number }) {
  const [open, setOpen] = useState(true);
  useEffect(() => {
    const timer = window.setTimeout(() => setOpen(false), durationMs);
    return () => window.clearTimeout(timer);
  }, [durationMs]);

  return (
    <Collapse in={open} unmountOnExit>
      {/* Joined server messages arrive one a line. */}
      <Alert severity="error" onClose={() => setOpen(false)} sx={{ mb: 2, whiteSpace: 'pre-line' }}>
        {children}
      </Alert>
    </Collapse>
  );
}
