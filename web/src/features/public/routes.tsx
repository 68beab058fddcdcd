import { paths } from '@petreg/contract';
import type { RouteObject } from 'react-router';
import { page } from '../../app/lazyPage';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { MicrochipLookupPage } from './MicrochipLookupPage';
import { PublicLayout } from './PublicLayout';

/**
 * The finder's pages (spec 4: the access guard always lets them through, signed in or not). The server
 * renders them too (web/src/ssr.tsx), and the browser hydrates what it sent. The lookup, what finders
 * open most, comes with the app's own script; a profile loads its card when opened.
 */
export const finderRoutes: RouteObject[] = [
  { path: paths.microchipLookup, element: <MicrochipLookupPage /> },
  {
    path: `${paths.petProfiles}/:id?`,
    lazy: page(() => import('./PetProfilePage'), 'PetProfilePage'),
    // While its card's script loads, the frame and spinner the profile shows while the pet loads.
    hydrateFallbackElement: (
      <PublicLayout>
        <CenteredSpinner />
      </PublicLayout>
    ),
  },
  { path: `${paths.short}/:id`, lazy: page(() => import('./ShortLinkPage'), 'ShortLinkPage') },
];
