import type { EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { theme } from '../../app/theme';

/** The useId prefix of the page's `index`th island: its own root on the server and in the browser, so ids match. */
export const islandIdPrefix = (index: number) => `island${index}-`;

/**
 * What an island renders in, the same on the server and in the browser: the theme, emotion's cache and
 * the page's answers. `onHydrated` runs once the island's own effects have run, when it answers events.
 */
export function IslandRoot({
  cache,
  queryClient,
  onHydrated,
  children,
}: {
  cache: EmotionCache;
  queryClient: QueryClient;
  onHydrated?: () => void;
  children: ReactNode;
}) {
  useEffect(() => onHydrated?.(), [onHydrated]);
  return (
    <StrictMode>
      <CacheProvider value={cache}>
        <ThemeProvider theme={theme}>
          <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
        </ThemeProvider>
      </CacheProvider>
    </StrictMode>
  );
}
