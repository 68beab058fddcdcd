import type { PlaceDetail, SiteSearchResult, ZipPlace } from '@petreg/contract';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { createDirectoryPlaces } from './directory.js';
import { createGooglePlaces } from './google.js';

/** A place as a site is made of it: the site's own fields and what its profile page shows. */
export interface PlaceFound {
  /** Set when the place is already a directory entry (a directory place id): that site is the place. */
  siteId?: number;
  googlePlaceId: string;
  name: string;
  address1: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  phoneNumber: string | null;
  url: string | null;
  imageUrl: string | null;
  rating: number | null;
  reviewsCount: number | null;
  latitude: number | null;
  longitude: number | null;
  placeDetail: PlaceDetail;
}

export interface PlacePhoto {
  body: Buffer;
  contentType: string;
}

/** What vet search asks: the box's text, the ZIP code it names (if any), and where the previous page ended. */
export interface PlaceSearch {
  query: string;
  /** The ZIP code the query is, known to the ZIP table: the nearest vets around its centre. */
  near: ZipPlace | null;
  /** The previous answer's `next`; a value of another source's making is a bad request. */
  next?: string;
}

/** One page of vet search: up to vetSearch.maxResults, best (or nearest) first. */
export interface PlaceSearchPage {
  results: SiteSearchResult[];
  next: string | null;
}

/** Vet search: Google Places when configured, the directory of sites otherwise. */
export interface Places {
  readonly name: 'google' | 'directory';
  /** Vet search results for a practice name, an address or a ZIP code, best first. */
  search(search: PlaceSearch): Promise<PlaceSearchPage>;
  /** The place a search result's place id names; null when there is no such place. */
  details(placeId: string): Promise<PlaceFound | null>;
  /** A photo named in a result's imageUrl, at most 400×300; null when there is no such photo. */
  photo(ref: string): Promise<PlacePhoto | null>;
}

export interface PlacesLog {
  error(details: object, message: string): void;
}

export function createPlaces(config: Pick<Config, 'googlePlaces'>, db: Database, log: PlacesLog): Places {
  const directory = createDirectoryPlaces(db);
  return config.googlePlaces ? createGooglePlaces(config.googlePlaces, { directory, log }) : directory;
}
