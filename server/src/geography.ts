import { formatPlace, type SiteKind, type SiteSource, type ZipPlace } from '@petreg/contract';
import { and, eq, inArray, isNotNull, sql, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from './db/client.js';
import { sites, zipCodes } from './db/schema.js';
import { RecentCache } from './recent.js';

export const METERS_PER_MILE = 1609.344;
/** The radius of earthdistance's sphere (earth()), so both ways of measuring agree. */
const EARTH_RADIUS_METERS = 6_378_168;

type Point = { latitude: number; longitude: number };

/** Miles along the great circle between two points (haversine), as greatCircleMeters measures them in SQL. */
export function milesBetween(from: Point, to: Point): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const haversine =
    Math.sin(radians(to.latitude - from.latitude) / 2) ** 2 +
    Math.cos(radians(from.latitude)) * Math.cos(radians(to.latitude)) * Math.sin(radians(to.longitude - from.longitude) / 2) ** 2;
  return (2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(haversine)))) / METERS_PER_MILE;
}

/**
 * ZIP codes found lately. The table changes only when another edition of the dataset is seeded, at a
 * start (which forgets them here): an instance started before it lags by an hour at most. A ZIP the
 * table lacks is read each time.
 */
const foundZips = new RecentCache<string, Readonly<ZipPlace>>(60 * 60_000, 50_000);

/** Called once the ZIP table was seeded again. */
export const forgetFoundZips = () => foundZips.clear();

/** A US ZIP code with its place name and centre; null when the ZIP table does not hold it. */
export async function findZip(db: Database, zip: string): Promise<Readonly<ZipPlace> | null> {
  const known = foundZips.get(zip);
  if (known) return known;
  const [row] = await db.select().from(zipCodes).where(eq(zipCodes.zip, zip));
  if (!row) return null;
  const found = Object.freeze({ ...row, place: formatPlace(row) });
  foundZips.set(zip, found);
  return found;
}

/** The ZIP codes of a list the table holds, by ZIP, in one query (a CSV import's rows). */
export async function findZips(db: Database, zips: readonly string[]): Promise<Map<string, ZipPlace>> {
  if (zips.length === 0) return new Map();
  const rows = await db.select().from(zipCodes).where(inArray(zipCodes.zip, [...new Set(zips)]));
  return new Map(rows.map((row) => [row.zip, { ...row, place: formatPlace(row) }]));
}

/**
 * Meters along the great circle between two points on earthdistance's sphere (earth()), by the
 * haversine formula: the figure earth_distance gives, computed from latitude and longitude with
 * built-in functions instead of building each row's earth point (a checked domain value), which
 * costs several times more per row.
 */
function greatCircleMeters(from: { latitude: SQLWrapper | number; longitude: SQLWrapper | number }, to: { latitude: SQLWrapper; longitude: SQLWrapper }) {
  const haversine = sql`power(sin(radians(${to.latitude} - ${from.latitude}) / 2), 2)
    + cos(radians(${from.latitude})) * cos(radians(${to.latitude})) * power(sin(radians(${to.longitude} - ${from.longitude}) / 2), 2)`;
  return sql`(2 * earth() * asin(least(1, sqrt(${haversine}))))`.mapWith(Number);
}

/** A ZIP code and how far its centre lies from the centre of the ZIP searched from. */
export interface ZipDistance {
  zip: string;
  miles: number;
}

/**
 * The ZIP codes whose centre lies within `miles` of the centre of `zip` (itself included), nearest
 * first; none when the ZIP is unknown. earth_box narrows the search through the GiST index; the box
 * holds a little more than the circle, so the great-circle distance decides.
 */
export async function zipsWithin(db: Database, zip: string, miles: number): Promise<ZipDistance[]> {
  const meters = miles * METERS_PER_MILE;
  const origin = alias(zipCodes, 'origin');
  const near = alias(zipCodes, 'near');
  const to = sql`ll_to_earth(${near.latitude}, ${near.longitude})`;
  const distance = greatCircleMeters(origin, near);
  const rows = await db
    .select({ zip: near.zip, meters: distance })
    .from(origin)
    .innerJoin(near, sql`earth_box(ll_to_earth(${origin.latitude}, ${origin.longitude}), ${meters}) @> ${to}`)
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
}

/** A site found around a point, and its distance in miles. */
export interface SiteNear {
  id: number;
  name: string;
  email: string | null;
  miles: number;
}

/**
 * Which sites lie within `miles` of a centre, as a condition over the sites table, with their
 * distance in meters: active ones the filter keeps, earth_box narrowing through the sites' GiST index
 * and the great-circle distance deciding. sitesNear reads the nearest of them; an alert writes its
 * recipients from all of them in one statement.
 */
export function sitesWithin(centre: { latitude: number; longitude: number }, miles: number, filter: SiteFilter = {}) {
  const meters = miles * METERS_PER_MILE;
  const distance = greatCircleMeters(centre, sites);
  const where = and(
    sql`earth_box(ll_to_earth(${centre.latitude}, ${centre.longitude}), ${meters}) @> ll_to_earth(${sites.latitude}, ${sites.longitude})`,
    sql`${distance} <= ${meters}`,
    eq(sites.isActive, true),
    filter.receivesAlerts ? and(eq(sites.receivesAlerts, true), isNotNull(sites.email)) : undefined,
    filter.kinds ? inArray(sites.practiceType, [...filter.kinds]) : undefined,
    filter.sources ? inArray(sites.source, [...filter.sources]) : undefined,
  )!;
  return { where, distance };
}

/**
 * The nearest `limit` active sites within `miles` of the origin (after skipping the `offset`
 * nearest), nearest first; none when the origin is an unknown ZIP (see sitesWithin).
 */
export async function sitesNear(
  db: Database,
  origin: Origin,
  miles: number,
  filter: SiteFilter & { limit: number; offset?: number },
): Promise<SiteNear[]> {
  const centre = 'zip' in origin ? await findZip(db, origin.zip) : origin;
  if (!centre) return [];
  const { where, distance } = sitesWithin(centre, miles, filter);
  const rows = await db
    .select({ id: sites.id, name: sites.name, email: sites.email, meters: distance })
    .from(sites)
    .where(where)
    .orderBy(distance, sites.id)
    .limit(filter.limit)
    .offset(filter.offset ?? 0);
  return rows.map(({ meters, ...site }) => ({ ...site, miles: meters / METERS_PER_MILE }));
}
