import type { HealthCheck } from '@petreg/contract';
import { Box, Paper, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../app/api';

function describe(health: HealthCheck): string {
  return `Status: ${health.status}\nDatabase: ${health.database ? 'connected' : 'not reachable'}`;
}

/** Read-only status box; it keeps reading "loading" when the server does not answer (spec 2.5). */
export function HealthCheckPage() {
  const health = useQuery({
    queryKey: ['utilities', 'health-check'],
    queryFn: ({ signal }) => api.get<HealthCheck>('utilities/health-check', { signal }),
    retry: false,
  });

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      <Paper variant="outlined" sx={{ p: 4, width: '100%', maxWidth: 480 }}>
        <Typography variant="h1" id="health-status-title" gutterBottom>
          Health Status
        </Typography>
        <TextField
          value={health.data ? describe(health.data) : 'loading'}
          multiline
          minRows={2}
          slotProps={{ htmlInput: { readOnly: true, 'aria-labelledby': 'health-status-title' } }}
        />
      </Paper>
    </Box>
  );
}
