import { formatPlace, type ZipPlace } from '@petreg/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from './db/client.js';
import { zipCodes } from './db/schema.js';

const METERS_PER_MILE = 1609.344;

/** A US ZIP code with its place name and centre; null when the ZIP table does not hold it. */
export async function findZip(db: Database, zip: string): Promise<ZipPlace | null> {
  const [row] = await db.select().from(zipCodes).where(eq(zipCodes.zip, zip));
  return row ? { ...row, place: formatPlace(row) } : null;
}

/** The ZIP codes of a list the table holds, by ZIP, in one query (a CSV import's rows). */
export async function findZips(db: Database, zips: readonly string[]): Promise<Map<string, ZipPlace>> {
  if (zips.length === 0) return new Map();
  const rows = await db.select().from(zipCodes).where(inArray(zipCodes.zip, [...new Set(zips)]));
  return new Map(rows.map((row) => [row.zip, { ...row, place: formatPlace(row) }]));
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
