import {
  directoryPlaceId,
  formatPlace,
  messages,
  siteIdOfPlaceId,
  siteSources,
  vetSearch,
  type PlaceDetail,
  type SiteKind,
  type SiteSearchResult,
  type ZipPlace,
} from '@petreg/contract';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { sites } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { findZip, sitesNear } from '../../geography.js';
import type { PlaceFound, Places, PlaceSearchPage } from './index.js';

type SiteRow = typeof sites.$inferSelect;

/** Vet search shows veterinary places; alerts reach every kind. */
const vetKinds: SiteKind[] = ['Veterinary Care', 'Emergency Vet'];
/** An owner's own entry (source 'owner') is theirs: nobody else finds it. */
const searchedSources = siteSources.filter((source) => source !== 'owner');
/** Words of a query matched by similarity; a 200-character query holds few more. */
const MAX_WORDS = 8;
/** How deep Show more goes: far enough for any owner, never a walk through the whole directory. */
const MAX_OFFSET = 1000;

/** The expression of the sites_search_trgm_idx index (schema.ts), written the same so the index serves it. */
const searchText = sql`(${sites.name} || ' ' || coalesce(${sites.address1}, '') || ' ' || coalesce(${sites.city}, ''))`;

const numberOrNull = (value: string | null) => (value === null ? null : Number(value));

function searchResult(site: SiteRow): SiteSearchResult {
  return {
    googlePlaceId: site.googlePlaceId ?? directoryPlaceId(site.id),
    name: site.name,
    address1: site.address1,
    city: site.city,
    state: site.state,
    zip: site.zipCode,
    phoneNumber: site.phoneNumber,
    rating: numberOrNull(site.rating),
    reviewsCount: site.reviewsCount,
    url: site.url,
    imageUrl: site.imageUrl,
    latitude: site.latitude,
    longitude: site.longitude,
  };
}

/** The directory's `next` is how many results came before: digits, at most MAX_OFFSET. */
function offsetOf(next: string | undefined): number {
  if (next === undefined) return 0;
  const offset = /^\d{1,4}$/.test(next) ? Number(next) : NaN;
  if (!(offset > 0 && offset <= MAX_OFFSET)) throw badRequest(messages.invalidRequest);
  return offset;
}

/** One more row than a page is read, to tell whether a next page exists. */
function page<T>(rows: T[], offset: number, toResult: (row: T) => SiteSearchResult): PlaceSearchPage {
  const more = rows.length > vetSearch.maxResults && offset + vetSearch.maxResults < MAX_OFFSET;
  return { results: rows.slice(0, vetSearch.maxResults).map(toResult), next: more ? String(offset + vetSearch.maxResults) : null };
}

/** The parts of a stored placeDetail (a maps service's details, an import's) that have the right shape. */
const storedDetail = z
  .object({
    address: z.string().nullable().catch(null),
    latitude: z.number().nullable().catch(null),
    longitude: z.number().nullable().catch(null),
    phone: z.string().nullable().catch(null),
    rating: z.number().nullable().catch(null),
    website: z.string().nullable().catch(null),
    weekdayText: z.array(z.string()).catch([]),
    types: z.array(z.string()).catch([]),
    reviews: z
      .array(
        z.object({
          author: z.string().catch(''),
          rating: z.number().nullable().catch(null),
          text: z.string().catch(''),
          relativeTime: z.string().nullable().catch(null),
        }),
      )
      .catch([]),
  })
  .partial()
  .catch({});

/** The street line, then "City, ST 12345" as far as the site (or else its ZIP code) tells them. */
function addressOf(site: Pick<SiteRow, 'address1' | 'city' | 'state' | 'zipCode'>, zip: ZipPlace | null): string | null {
  const city = site.city ?? zip?.city ?? null;
  const state = site.state ?? zip?.state ?? null;
  const place = city && state && site.zipCode ? formatPlace({ city, state, zip: site.zipCode }) : [city, state, site.zipCode].filter(Boolean).join(' ');
  const parts = [site.address1, place].filter(Boolean);
  return parts.length ? parts.join(', ') : null;
}

/**
 * What a site's profile page shows: its own columns first, then what its source stored (opening
 * hours, reviews), and where the site lacks them, its ZIP code's city, state and centre.
 */
export async function placeDetailOfSite(db: Database, site: SiteRow): Promise<PlaceDetail> {
  const stored = storedDetail.parse(site.placeDetail ?? {});
  const latitude = site.latitude ?? stored.latitude ?? null;
  const longitude = site.longitude ?? stored.longitude ?? null;
  const lacksPlace = latitude === null || longitude === null || !site.city || !site.state;
  const zip = lacksPlace && site.zipCode ? await findZip(db, site.zipCode) : null;
  return {
    address: addressOf(site, zip) ?? stored.address ?? null,
    latitude: latitude ?? zip?.latitude ?? null,
    longitude: longitude ?? zip?.longitude ?? null,
    phone: site.phoneNumber ?? stored.phone ?? null,
    rating: numberOrNull(site.rating) ?? stored.rating ?? null,
    website: site.url ?? stored.website ?? null,
    weekdayText: stored.weekdayText ?? [],
    types: stored.types?.length ? stored.types : [site.practiceType],
    reviews: stored.reviews ?? [],
  };
}

/** What vet search shows of the directory: active veterinary sites, but owners' own entries. Owners link only these, or their own entry. */
export const searchable = and(eq(sites.isActive, true), inArray(sites.practiceType, vetKinds), inArray(sites.source, searchedSources));

/**
 * Searchable sites with every word of the query similar to some stretch of their name, street or
 * city (pg_trgm's `word <% text`, which the trigram index serves), best first: `limit` of them after
 * the `offset` best.
 */
export function similarSites(db: Database, query: string, { limit, offset }: { limit: number; offset: number } = { limit: vetSearch.maxResults, offset: 0 }) {
  const words = query.split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
  const score = sql.join(
    words.map((word) => sql`word_similarity(${word}, ${searchText})`),
    sql` + `,
  );
  return db
    .select()
    .from(sites)
    .where(and(searchable, ...words.map((word) => sql`${word} <% ${searchText}`)))
    .orderBy(desc(score), desc(sql`similarity(${query}, ${searchText})`), sites.name, sites.id)
    .limit(limit)
    .offset(offset);
}

/**
 * The embedded default: the portal's own directory of sites. A ZIP code finds the nearest veterinary
 * sites within 50 miles of its centre; anything else matches names and addresses by trigram
 * similarity, every word of the query somewhere in the name, street or city.
 */
export function createDirectoryPlaces(db: Database): Places {
  return {
    name: 'directory',

    async search({ query, near, next }) {
      const offset = offsetOf(next);
      const limit = vetSearch.maxResults + 1;
      if (!near) return page(await similarSites(db, query, { limit, offset }), offset, searchResult);
      const centre = { latitude: near.latitude, longitude: near.longitude };
      const nearest = await sitesNear(db, centre, vetSearch.radiusMiles, { kinds: vetKinds, sources: searchedSources, limit, offset });
      const ids = nearest.map((site) => site.id);
      const rows = new Map((ids.length ? await db.select().from(sites).where(inArray(sites.id, ids)) : []).map((row) => [row.id, row]));
      return page(nearest, offset, (site) => ({ ...searchResult(rows.get(site.id)!), distanceMiles: Math.round(site.miles * 10) / 10 }));
    },

    async details(placeId) {
      const siteId = siteIdOfPlaceId(placeId);
      if (siteId === null) return null;
      const [site] = await db
        .select()
        .from(sites)
        .where(and(eq(sites.id, siteId), eq(sites.isActive, true), inArray(sites.source, searchedSources)));
      if (!site) return null;
      const found: PlaceFound = {
        siteId: site.id,
        googlePlaceId: placeId,
        name: site.name,
        address1: site.address1,
        city: site.city,
        state: site.state,
        zipCode: site.zipCode,
        phoneNumber: site.phoneNumber,
        url: site.url,
        imageUrl: site.imageUrl,
        rating: numberOrNull(site.rating),
        reviewsCount: site.reviewsCount,
        latitude: site.latitude,
        longitude: site.longitude,
        placeDetail: await placeDetailOfSite(db, site),
      };
      return found;
    },

    // Directory entries name their own image address (imageUrl); there is no photo to fetch for them.
    async photo() {
      return null;
    },
  };
}
