import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * A table cell's text with a quieter second line, kept as one block: where a stacked table turns
 * the cell into a labelled row of its card (stackedTable), the two lines stay together on the right.
 */
export function CellText({ children, detail }: { children: ReactNode; detail?: ReactNode }) {
  return (
    <Box>
      {children}
      {detail && (
        <Typography variant="body2" color="text.secondary">
          {detail}
        </Typography>
      )}
    </Box>
  );
}
