// The finder pages' script (finder.html, the frame of the pages the server renders: the microchip
// lookup, a pet's profile, a short link's page). It hydrates only the page's islands, the parts that
// need the browser, each in its own root: a finder's phone on a poor connection loads, evaluates and
// hydrates those, not the app with its router and screens. Links lead to the app's pages as plain links.
import createCache from '@emotion/cache';
import { paths, withId, type PublicSettings } from '@petreg/contract';
import { hydrate } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { readFinderPageState } from './app/finderPageState';
import { createQueryClient } from './app/queryClient';
import { publicSettingsKey } from './app/settings';
import { shortLinkTargetKey } from './features/public/api';
import { islandIdPrefix, IslandRoot } from './features/public/IslandRoot';
import type { IslandName } from './features/public/islands';
import { productionLookupAddress } from './features/public/productionHost';

/** Each island's code, loaded when the page has that island: a lookup page loads no profile parts, a phone's profile no lookup form. */
const islandCode: Record<IslandName, () => Promise<ComponentType<object>>> = {
  lookup: () => import('./features/public/MicrochipLookup').then((module) => module.MicrochipLookup as ComponentType<object>),
  lostTime: () => import('./features/public/profileParts').then((module) => module.LostTime as ComponentType<object>),
  contact: () => import('./features/public/profileParts').then((module) => module.ContactSection as ComponentType<object>),
};

const queryClient = createQueryClient();
const state = readFinderPageState();
if (state) hydrate(queryClient, state);

// A short link's page takes the address of what it shows, the pet's profile or, when it led nowhere,
// the lookup page (as the app's short link screen does).
const [, shortLink, code] = window.location.pathname.split('/');
let lookupPage = window.location.pathname.toLowerCase() === paths.microchipLookup;
if (`/${shortLink}`.toLowerCase() === paths.short && code) {
  const target = queryClient.getQueryData<string | null>(shortLinkTargetKey(code));
  if (target !== undefined) window.history.replaceState(null, '', target ? withId(paths.petProfiles, target) : paths.microchipLookup);
  lookupPage = target === null;
}
const productionAddress = lookupPage ? productionLookupAddress(queryClient.getQueryData<PublicSettings>(publicSettingsKey)?.productionHost) : null;

if (productionAddress) window.location.replace(productionAddress);
else {
  // The server's styles are the cache's already (createCache takes them over): hydration adds none twice.
  const cache = createCache({ key: 'css' });
  const hydrateIsland = async (element: HTMLElement, index: number, onHydrated?: () => void) => {
    const load = islandCode[element.dataset.island as IslandName] as (typeof islandCode)[IslandName] | undefined;
    if (!load) return;
    const Island = await load();
    hydrateRoot(
      element,
      <IslandRoot cache={cache} queryClient={queryClient} onHydrated={onHydrated}>
        <Island {...(JSON.parse(element.dataset.islandProps ?? '{}') as object)} />
      </IslandRoot>,
      { identifierPrefix: islandIdPrefix(index) },
    );
  };
  document.querySelectorAll<HTMLElement>('[data-island]').forEach((element, index) => {
    if (element.dataset.island === 'lookup') hydrateOnFirstUse(element, (onHydrated) => void hydrateIsland(element, index, onHydrated));
    else void hydrateIsland(element, index);
  });
}

/**
 * The lookup form is the server's plain form until a finder touches it: its code (the form library,
 * the inputs' behaviour) loads and runs then, so a phone on a poor connection paints and answers
 * the page first. A number typed or a search asked for before the code ran is kept and carried out.
 */
function hydrateOnFirstUse(element: HTMLElement, hydrate: (onHydrated: () => void) => void) {
  let searchAsked = false;
  let live = false;
  // Until the island is live, Enter (the server's Search is disabled, so it submits nothing) or a
  // submit (which would reload the page) asks for the search the script then carries out.
  const askSearch = (event: Event) => {
    if (live || (event instanceof KeyboardEvent && event.key !== 'Enter')) return;
    event.preventDefault();
    searchAsked = true;
  };
  element.addEventListener('keydown', askSearch, true);
  element.addEventListener('submit', askSearch, true);
  const onHydrated = () => {
    live = true;
    if (searchAsked) element.querySelector('form')?.requestSubmit();
    searchAsked = false;
  };
  const used = element.contains(document.activeElement) || Boolean(element.querySelector('input')?.value);
  if (used) return hydrate(onHydrated);
  const uses = ['focusin', 'pointerdown', 'keydown', 'touchstart'] as const;
  const start = () => {
    uses.forEach((use) => element.removeEventListener(use, start, true));
    hydrate(onHydrated);
  };
  uses.forEach((use) => element.addEventListener(use, start, { capture: true, passive: true }));
}
