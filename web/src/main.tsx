import { hydrate } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { App } from './app/App';
import { readFinderPageState } from './app/finderPageState';
import { createQueryClient } from './app/providers';
import { routes } from './app/router';
import { resumeSession } from './features/auth/session';

// Screens load their scripts when first opened, and a release replaces those hashed files: a tab opened
// before the release finds them gone, and reloads into the new release rather than showing an error.
// Once a minute at most: a script that fails every time (blocked, or broken) shows the error page
// instead of reloading for ever.
const reloadedAtKey = 'petreg-reloaded-for-release';
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem(reloadedAtKey) ?? 0);
  if (Date.now() - last < 60_000) return;
  sessionStorage.setItem(reloadedAtKey, String(Date.now()));
  event.preventDefault();
  window.location.reload();
});

/** Loads the lazily loaded screens this address shows, so the router's first render is the server's page, not a fallback. */
async function loadScreensOf(table: RouteObject[]) {
  const matches = matchRoutes(table, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, { ...(await route.lazy()), lazy: undefined });
    }),
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
const state = readFinderPageState();
if (state) {
  // A finder's page the server rendered: the same answers, screen and session, then hydration. A stored
  // session is resumed first (one call, for signed-in owners only); the page reads meanwhile, and its
  // links work as plain links.
  hydrate(queryClient, state);
  const [session] = await Promise.all([resumeSession(), loadScreensOf(routes)]);
  hydrateRoot(
    root,
    <StrictMode>
      <App router={createBrowserRouter(routes)} queryClient={queryClient} session={session} />
    </StrictMode>,
  );
} else {
  createRoot(root).render(
    <StrictMode>
      <App router={createBrowserRouter(routes)} queryClient={queryClient} />
    </StrictMode>,
  );
}
