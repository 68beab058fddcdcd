import { ui } from '@petreg/contract';
import { CssBaseline, ThemeProvider, styled } from '@mui/material';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { MaterialDesignContent, SnackbarProvider } from 'notistack';
import type { ReactNode } from 'react';
import { SessionProvider, type ResumedSession } from '../features/auth/session';
import { theme } from './theme';

/** Toasts in the theme's colours: notistack's own green, orange and blue carry white text near 3:1, under WCAG AA's 4.5:1. */
const Toast = styled(MaterialDesignContent)(({ theme }) =>
  Object.fromEntries(
    (['success', 'error', 'warning', 'info'] as const).map((variant) => [
      `&.notistack-MuiContent-${variant}`,
      { backgroundColor: theme.palette[variant].main, color: theme.palette[variant].contrastText },
    ]),
  ),
);
const toastVariants = { success: Toast, error: Toast, warning: Toast, info: Toast };

/** `session`: the session as known before the first render (see SessionProvider). */
export function Providers({ queryClient, session, children }: { queryClient: QueryClient; session?: ResumedSession; children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <SnackbarProvider
        maxSnack={ui.toastStackMax}
        autoHideDuration={ui.snackbarAutoHideMs}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        Components={toastVariants}
      >
        <QueryClientProvider client={queryClient}>
          <SessionProvider resumed={session}>{children}</SessionProvider>
        </QueryClientProvider>
      </SnackbarProvider>
    </ThemeProvider>
  );
}
