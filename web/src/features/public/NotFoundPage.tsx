import { messages, paths } from '@petreg/contract';
import { SearchOff } from '@mui/icons-material';
import { Box, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';

export function NotFoundPage() {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', textAlign: 'center', minHeight: '60vh', p: 3 }}>
      <Box>
        <SearchOff aria-hidden sx={{ fontSize: 72, color: 'text.disabled' }} />
        <Typography variant="h1" sx={{ my: 2 }}>
          {messages.pageNotFound}
        </Typography>
        <Link component={RouterLink} to={paths.root}>
          Go back to root
        </Link>
      </Box>
    </Box>
  );
}
