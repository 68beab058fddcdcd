import type { PublicProfile } from './publicProfile.js';
import type { PublicSettings } from './user.js';

/**
 * What the server read for a finder's page it renders (the lookup page, a pet's profile, a short
 * link's page): the answers the page's own API calls would bring, handed to the same components.
 */
export interface FinderPageData {
  settings: PublicSettings;
  /** The pet a profile address or short link shows, by its public id; null when no such pet shows. */
  profile?: { publicId: string; answer: PublicProfile | null };
  /** A short link's code and the public id it leads to; null when it leads nowhere. */
  shortLink?: { code: string; target: string | null };
}

export interface RenderedFinderPage {
  /** For the head: the critical CSS of what the page shows, and the data it was rendered from (which the browser hydrates with). */
  head: string;
  /** For #root: the page's markup. */
  root: string;
}

/** The web app's server entry (web/src/ssr.tsx): renders the page at `url` (a path) from the data. */
export type FinderPageRenderer = (url: string, data: FinderPageData) => Promise<RenderedFinderPage>;
