import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

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
