import { ui } from '@petreg/contract';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import type { ReactNode } from 'react';
import { SessionProvider, type ResumedSession } from '../features/auth/session';
import { theme } from './theme';

/** `session`: the session as known before the first render (see SessionProvider). */
export function Providers({ queryClient, session, children }: { queryClient: QueryClient; session?: ResumedSession; children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <SnackbarProvider
        maxSnack={ui.toastStackMax}
        autoHideDuration={ui.snackbarAutoHideMs}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      >
        <QueryClientProvider client={queryClient}>
          <SessionProvider resumed={session}>{children}</SessionProvider>
        </QueryClientProvider>
      </SnackbarProvider>
    </ThemeProvider>
  );
}
