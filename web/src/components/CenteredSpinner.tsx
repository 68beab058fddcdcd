import { Box, CircularProgress } from '@mui/material';

export function CenteredSpinner({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: fullScreen ? '100vh' : 240 }}>
      <CircularProgress aria-label="Loading" />
    </Box>
  );
}
