import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider, type DataRouter } from 'react-router';
import type { ResumedSession } from '../features/auth/session';
import { Providers } from './providers';

export function App({ router, queryClient, session }: { router: DataRouter; queryClient: QueryClient; session?: ResumedSession }) {
  return (
    <Providers queryClient={queryClient} session={session}>
      <RouterProvider router={router} />
    </Providers>
  );
}
