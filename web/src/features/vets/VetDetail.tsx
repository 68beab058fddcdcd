import { Box, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** One line of a vet's details (address, phone, distance, website) behind a small icon. */
export function VetDetail({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Box aria-hidden sx={{ color: 'text.secondary', display: 'flex', pt: '2px', '& svg': { fontSize: 18 } }}>
        {icon}
      </Box>
      <Typography variant="body2" component="div" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Stack>
  );
}

/** A postal address, one line a row. */
export function VetAddress({ lines }: { lines: string[] }) {
  return (
    <Box component="address" sx={{ fontStyle: 'normal' }}>
      {lines.map((line) => (
        <span key={line} style={{ display: 'block' }}>
          {line}
        </span>
      ))}
    </Box>
  );
}
