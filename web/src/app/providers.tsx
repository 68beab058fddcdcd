import { ui } from '@petreg/contract';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import type { ReactNode } from 'react';
import { SessionProvider, type ResumedSession } from '../features/auth/session';
import { ApiError } from './api';
import { theme } from './theme';

/** One for the browser's visit; one for each page the server renders. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        // A refused or invalid request will not succeed on a second try; a dropped connection may.
        retry: (failures, error) =>
          failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
    },
  });
}

/** `session`: the session as resumed before a server-rendered page is hydrated (see SessionProvider). */
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
