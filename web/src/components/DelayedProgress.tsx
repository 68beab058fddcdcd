import { LinearProgress } from '@mui/material';
import { useEffect, useState } from 'react';

/** A progress bar that shows only when the wait outlasts `delayMs`, so quick loads do not flicker. */
export function DelayedProgress({ delayMs, label }: { delayMs: number; label: string }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setVisible(true), delayMs);
    return () => window.clearTimeout(timer);
  }, [delayMs]);
  return visible ? <LinearProgress aria-label={label} /> : null;
}
