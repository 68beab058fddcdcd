import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app/App';
import { createQueryClient } from './app/queryClient';
import { routes } from './app/router';

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

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The finder's pages the server renders come in their own frame and script (finder.html, finder.tsx):
// here every screen is rendered in the browser.
createRoot(root).render(
  <StrictMode>
    <App router={createBrowserRouter(routes)} queryClient={createQueryClient()} />
  </StrictMode>,
);
