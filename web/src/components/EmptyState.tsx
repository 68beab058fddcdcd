import { Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** What a list shows before it has anything in it: an icon, a line, and a hint of what to do. */
export function EmptyState({ icon, title, hint }: { icon: ReactNode; title: string; hint: string }) {
  return (
    <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center', py: 3, color: 'text.secondary' }}>
      <Stack sx={{ color: 'primary.light', '& svg': { fontSize: 40 } }}>{icon}</Stack>
      <Typography variant="subtitle1" color="text.primary">
        {title}
      </Typography>
      <Typography variant="body2">{hint}</Typography>
    </Stack>
  );
}
