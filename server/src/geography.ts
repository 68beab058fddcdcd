import { formatPlace, type SiteKind, type SiteSource, type ZipPlace } from '@petreg/contract';
import { and, eq, getTableColumns, inArray, isNotNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from './db/client.js';
import { sites, zipCodes } from './db/schema.js';

const METERS_PER_MILE = 1609.344;

/** A US ZIP code with its place name and centre; null when the ZIP table does not hold it. */
export async function findZip(db: Database, zip: string): Promise<ZipPlace | null> {
  const [row] = await db.select().from(zipCodes).where(eq(zipCodes.zip, zip));
  return row ? { ...row, place: formatPlace(row) } : null;
}

/** A ZIP code and how far its centre lies from the centre of the ZIP searched from. */
export interface ZipDistance {
  zip: string;
  miles: number;
}

/**
 * The ZIP codes whose centre lies within `miles` of the centre of `zip` (itself included), nearest
 * first; none when the ZIP is unknown. earth_box narrows the search through the GiST index; the box
 * holds a little more than the circle, so earth_distance decides.
 */
export async function zipsWithin(db: Database, zip: string, miles: number): Promise<ZipDistance[]> {
  const meters = miles * METERS_PER_MILE;
  const origin = alias(zipCodes, 'origin');
  const near = alias(zipCodes, 'near');
  const from = sql`ll_to_earth(${origin.latitude}, ${origin.longitude})`;
  const to = sql`ll_to_earth(${near.latitude}, ${near.longitude})`;
  const distance = sql`earth_distance(${from}, ${to})`.mapWith(Number);
  const rows = await db
    .select({ zip: near.zip, meters: distance })
    .from(origin)
    .innerJoin(near, sql`earth_box(${from}, ${meters}) @> ${to}`)
    .where(and(eq(origin.zip, zip), sql`${distance} <= ${meters}`))
    .orderBy(distance, near.zip);
  return rows.map((row) => ({ zip: row.zip, miles: row.meters / METERS_PER_MILE }));
}

/** Where a radius search starts: a point, or the centre of a ZIP code. */
export type Origin = { latitude: number; longitude: number } | { zip: string };

/** Which active sites a radius search keeps. */
export interface SiteFilter {
  /** Only sites that take lost-pet alerts and have an e-mail to send them to. */
  receivesAlerts?: boolean;
  kinds?: readonly SiteKind[];
  sources?: readonly SiteSource[];
  limit?: number;
}

// Everything but the place details (reviews, hours): a radius search may answer thousands of sites.
const { placeDetail: _placeDetail, ...listedColumns } = getTableColumns(sites);

/** A site found around a point, with its distance in miles. */
export type SiteNear = { [K in keyof typeof listedColumns]: (typeof sites.$inferSelect)[K] } & { miles: number };

/**
 * The active sites within `miles` of the origin, nearest first; none when the origin is an unknown
 * ZIP. As for ZIP codes, earth_box narrows through the sites' GiST index and earth_distance decides.
 */
export async function sitesNear(db: Database, origin: Origin, miles: number, filter: SiteFilter = {}): Promise<SiteNear[]> {
  const centre = 'zip' in origin ? await findZip(db, origin.zip) : origin;
  if (!centre) return [];
  const meters = miles * METERS_PER_MILE;
  const from = sql`ll_to_earth(${centre.latitude}, ${centre.longitude})`;
  const to = sql`ll_to_earth(${sites.latitude}, ${sites.longitude})`;
  const distance = sql`earth_distance(${from}, ${to})`.mapWith(Number);
  const query = db
    .select({ ...listedColumns, meters: distance })
    .from(sites)
    .where(
      and(
        sql`earth_box(${from}, ${meters}) @> ${to}`,
        sql`${distance} <= ${meters}`,
        eq(sites.isActive, true),
        filter.receivesAlerts ? and(eq(sites.receivesAlerts, true), isNotNull(sites.email)) : undefined,
        filter.kinds ? inArray(sites.practiceType, [...filter.kinds]) : undefined,
        filter.sources ? inArray(sites.source, [...filter.sources]) : undefined,
      ),
    )
    .orderBy(distance, sites.id)
    .$dynamic();
  const rows = await (filter.limit === undefined ? query : query.limit(filter.limit));
  return rows.map(({ meters: found, ...site }) => ({ ...site, miles: found / METERS_PER_MILE }));
}
