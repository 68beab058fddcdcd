import {
  ageInMonths,
  messages,
  type CreatedPet,
  type MicrochipLookup,
  type NamedItem,
  type PublicProfile,
  type PublicSettings,
  type StaticData,
} from '@petreg/contract';
import { eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { ADMIN_URL } from './globalSetup.js';
import { chips, petAlerts, petBreeds, pets, sitePets, sites, states, users } from '../src/db/schema.js';
import { activatePet, call, createTestApp, signUpOwner, type TestContext } from './helpers.js';

let ctx: TestContext;
let dog: number;
let brand: number;
let beagle: NamedItem;
let texas: number;

beforeAll(async () => {
  ctx = await createTestApp({ env: { PRODUCTION_HOST: 'Registry.Example.com' } });
  const data = (await call<StaticData>(ctx.app, 'GET', 'utilities/static-data')).body.result!;
  dog = data.species.find((s) => s.name === 'Dog')!.id;
  brand = data.brands.find((b) => b.name === 'HomeAgain')!.id;
  const dogBreeds = (await call<NamedItem[]>(ctx.app, 'GET', `utilities/breeds-by-species/${dog}`)).body.result!;
  beagle = dogBreeds.find((b) => b.name === 'Beagle') ?? dogBreeds[0]!;
  const [state] = await ctx.database.db.select({ id: states.id }).from(states).where(eq(states.abbreviation, 'TX'));
  texas = state!.id;
});
afterAll(() => ctx.close());

let chipCounter = 0;
/** A fresh HomeAgain ISO number per test, so pets never collide on the one-pet-per-chip rule. */
const newChip = () => `985${String(Date.now() % 1e9).padStart(9, '0')}${String(chipCounter++).padStart(3, '0')}`;

/** A new owner (in Texas) with one pet, created through the API as the owner would. */
async function ownerWithPet(overrides: Record<string, unknown> = {}) {
  const owner = await signUpOwner(ctx.app);
  await ctx.database.db.update(users).set({ stateId: texas }).where(eq(users.id, owner.user.id));
  const chipId = newChip();
  const { status, body } = await call<CreatedPet>(ctx.app, 'POST', 'Pet/create-pet', {
    token: owner.token,
    body: {
      name: 'Biscuit',
      chipId,
      confirmChip: chipId,
      chipTypeId: brand,
      speciesId: dog,
      breeds: [beagle],
      sex: 2,
      dob: '2021-04-02',
      approximateWeight: 42,
      shareContactInfo: true,
      ...overrides,
    },
  });
  if (status !== 200) throw new Error(`create-pet failed: ${body.errors.join(', ')}`);
  return { owner, pet: body.result!.pet, chipId };
}

/** What a completed payment does to the records (the payment flow is tested on its own). */
const activate = (petId: number, chip: Partial<typeof chips.$inferInsert> = {}) => activatePet(ctx.database, petId, chip);

/**
 * A write made with the table's triggers off, as an operator's SQL might be: nothing announces it, so
 * an answer that still shows the old value came from memory.
 */
const unannounced = (table: typeof chips | typeof pets, write: SQL) =>
  ctx.database.db.transaction(async (tx) => {
    await tx.execute(sql`alter table ${table} disable trigger user`);
    await tx.execute(write);
    await tx.execute(sql`alter table ${table} enable trigger user`);
  });

async function reportMissing(petId: number, missingDate = new Date('2024-01-01T15:00:00Z'), zipCode = '78701') {
  await ctx.database.db.update(pets).set({ missingDate, zipCode }).where(eq(pets.id, petId));
}

const lookup = (id: string, ip?: string) =>
  call<MicrochipLookup>(ctx.app, 'GET', `utilities/microchip-lookup?id=${encodeURIComponent(id)}`, { ip });
const profileOf = (id: string, ip?: string) => call<PublicProfile>(ctx.app, 'GET', `pet/pet-profiles/${id}`, { ip });

describe('GET utilities/microchip-lookup', () => {
  it('answers the chip id of a chip registered to an active pet, and nothing personal', async () => {
    const { owner, pet, chipId } = await ownerWithPet();
    await activate(pet.id);

    const { status, body } = await lookup(chipId);
    expect(status).toBe(200);
    expect(body.result).toEqual({
      result: { id: chipId },
      isRegistered: true,
      chip: { format: 'iso', manufacturer: 'Destron Fearing / HomeAgain', countryCode: null },
    });
    const text = JSON.stringify(body);
    for (const personal of [owner.input.email, owner.input.firstName, owner.input.lastName, '4155552671', pet.name, pet.publicId, pet.shortId!]) {
      expect(text).not.toContain(personal);
    }
    expect(text).not.toMatch(/"(petId|userId|email|phone|name)"/);
  });

  it('finds the chip however the finder spells it', async () => {
    const { pet, chipId } = await ownerWithPet();
    await activate(pet.id);
    const spaced = `${chipId.slice(0, 3)} ${chipId.slice(3, 9)}-${chipId.slice(9)}`;
    expect((await lookup(spaced)).body.result!.result).toEqual({ id: chipId });
  });

  it('says a chip nobody registered is not registered, with what its number tells', async () => {
    const { status, body } = await lookup('0A12345678');
    expect(status).toBe(200);
    expect(body.result).toEqual({
      result: null,
      isRegistered: false,
      chip: { format: 'tenCharacter', manufacturer: '24PetWatch', countryCode: null },
    });
  });

  it('does not count chips of inactive pets, disabled chips, run-out or removed registrations, or removed pets', async () => {
    const inactive = await ownerWithPet();
    expect((await lookup(inactive.chipId)).body.result).toMatchObject({ result: null, isRegistered: false });

    const disabled = await ownerWithPet();
    await activate(disabled.pet.id, { isActive: false });
    expect((await lookup(disabled.chipId)).body.result!.isRegistered).toBe(false);

    const expired = await ownerWithPet();
    await activate(expired.pet.id, { expirationDate: new Date(Date.now() - 86_400_000) });
    expect((await lookup(expired.chipId)).body.result!.isRegistered).toBe(false);

    const lifetime = await ownerWithPet();
    await activate(lifetime.pet.id, { oneTime: true, expirationDate: null });
    expect((await lookup(lifetime.chipId)).body.result!.isRegistered).toBe(true);

    const removedChip = await ownerWithPet();
    await activate(removedChip.pet.id, { removedAt: new Date() });
    expect((await lookup(removedChip.chipId)).body.result!.isRegistered).toBe(false);

    const removedPet = await ownerWithPet();
    await activate(removedPet.pet.id);
    await ctx.database.db.update(pets).set({ deletedAt: new Date() }).where(eq(pets.id, removedPet.pet.id));
    expect((await lookup(removedPet.chipId)).body.result!.isRegistered).toBe(false);
  });

  describe('answers remembered between calls', () => {
    const registered = async (chipId: string) => (await lookup(chipId)).body.result!.isRegistered;
    /** Checked at once after each write: the write's notification is heard before a remembered answer is served. */
    const answers = async (chipId: string, expected: boolean) => expect(await registered(chipId)).toBe(expected);
    const setChip = (petId: number, values: Partial<typeof chips.$inferInsert>) => ctx.database.db.update(chips).set(values).where(eq(chips.petId, petId));
    const setPet = (petId: number, values: Partial<typeof pets.$inferInsert>) => ctx.database.db.update(pets).set(values).where(eq(pets.id, petId));

    it('are served from memory: a write nothing announces is not seen until one that is announced', async () => {
      const { pet, chipId } = await ownerWithPet();
      await activate(pet.id);
      await answers(chipId, true);
      await unannounced(chips, sql`update ${chips} set is_active = false where pet_id = ${pet.id}`);
      await answers(chipId, true);
      await setChip(pet.id, { oneTime: true });
      await answers(chipId, false);
    });

    it('follow every write to the chip or its pet, whoever makes it', async () => {
      const { pet, chipId } = await ownerWithPet();
      expect(await registered(chipId)).toBe(false);
      await activate(pet.id);
      await answers(chipId, true);
      await setChip(pet.id, { isActive: false });
      await answers(chipId, false);
      await setChip(pet.id, { isActive: true });
      await answers(chipId, true);
      await setPet(pet.id, { isActive: false });
      await answers(chipId, false);
      await setPet(pet.id, { isActive: true });
      await answers(chipId, true);
      await setPet(pet.id, { deletedAt: new Date() });
      await answers(chipId, false);
      await setPet(pet.id, { deletedAt: null });
      await answers(chipId, true);
      await setChip(pet.id, { expirationDate: new Date(Date.now() - 1000) });
      await answers(chipId, false);
      await setChip(pet.id, { expirationDate: new Date(Date.now() + 86_400_000), removedAt: new Date() });
      await answers(chipId, false);
    });

    it('follow a chip number taken off one pet and registered through the API to another', async () => {
      const first = await ownerWithPet();
      await activate(first.pet.id);
      await answers(first.chipId, true);
      await setChip(first.pet.id, { removedAt: new Date() });
      await answers(first.chipId, false);
      const second = await ownerWithPet({ chipId: first.chipId, confirmChip: first.chipId });
      expect(second.pet.chips[0]!.chipId).toBe(first.chipId);
      expect(await registered(first.chipId)).toBe(false);
      await activate(second.pet.id);
      await answers(first.chipId, true);
    });

    it.runIf(process.env.TEST_DB === 'postgres')('follow writes made while the listening connection to the server was down, and after', async () => {
      const { pet, chipId } = await ownerWithPet();
      await activate(pet.id);
      await answers(chipId, true);
      await ctx.database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%'`,
      );
      await setChip(pet.id, { isActive: false });
      await answers(chipId, false);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await setChip(pet.id, { isActive: true });
      await answers(chipId, true);
      await setChip(pet.id, { isActive: false });
      await answers(chipId, false);
    });

    it.runIf(process.env.TEST_DB === 'postgres')('remember nothing, and say why, while no listening connection can be made', async () => {
      const url = new URL(ADMIN_URL);
      url.pathname = '/petreg_no_such_database';
      const unreachable = await openDatabase({ url: url.toString(), dataDir: null });
      const troubles: unknown[] = [];
      const subscription = await unreachable.listen('chip_lookup', () => {}, (error) => troubles.push(error));
      try {
        expect(subscription.live()).toBe(false);
        expect(troubles).toHaveLength(1);
        expect(String(troubles[0])).toMatch(/petreg_no_such_database/);
      } finally {
        await unreachable.close();
      }
    });

    it('end when a yearly registration runs out, with no write', async () => {
      const { pet, chipId } = await ownerWithPet();
      const runsOut = new Date(Date.now() + 60_000);
      await activate(pet.id, { expirationDate: runsOut });
      // Only the clock is faked: the database, its notifications and the server's timers run as usual.
      vi.useFakeTimers({ toFake: ['Date'], now: runsOut.getTime() - 1 });
      try {
        await answers(chipId, true);
        vi.setSystemTime(runsOut);
        expect(await registered(chipId)).toBe(false);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  it.each(['12345678', '123456789012', '9851410001234567', ''])('refuses %j with the length message', async (id) => {
    const { status, body } = await lookup(id);
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.lookupLength]);
  });

  it('refuses a call without a number', async () => {
    const { status, body } = await call(ctx.app, 'GET', 'utilities/microchip-lookup');
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.lookupLength]);
  });

  it('answers 429 when one address walks through chip numbers', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await lookup(`98500000000${String(1000 + i)}`, '10.0.0.31')).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    const last = await lookup('985000000009999', '10.0.0.31');
    expect(last.status).toBe(429);
    expect(last.body.errors).toEqual([messages.tooManyRequests]);
    expect((await lookup('985000000009999', '10.0.0.32')).status).toBe(200);
  });
});

describe('GET pet/pet-profiles/{id}', () => {
  it("shows a safe pet's public details and the owner's name, state and country, but no contact", async () => {
    const { owner, pet } = await ownerWithPet();
    await call(ctx.app, 'POST', 'Users/backup-contact', { token: owner.token, body: { name: 'Sam', phoneNumber: '(415) 555-0100' } });

    const { status, body } = await profileOf(pet.publicId);
    expect(status).toBe(200);
    expect(body.result).toEqual({
      pet: {
        petName: 'Biscuit',
        species: 'Dog',
        breed: beagle.name,
        age: ageInMonths('2021-04-02'),
        sex: 2,
        weight: 19.1,
        image: null,
        zipcode: null,
        lastSeenPlace: null,
        missingDate: null,
        foundDate: null,
        foundSince: null,
        alertStatus: null,
        shareContactInfo: true,
        firstName: owner.input.firstName,
        lastName: owner.input.lastName,
        state: { abbreviation: 'TX' },
        country: 'US',
        userPhoto: null,
        email: null,
        phone: null,
        backupContacts: [],
      },
      sites: [],
    });
  });

  it("shows a missing pet's owner contact, first vet and first backup contact when the owner shares them", async () => {
    const { owner, pet } = await ownerWithPet();
    for (const [name, phoneNumber] of [['Sam', '(415) 555-0100'], ['Alex', '(415) 555-0101']]) {
      await call(ctx.app, 'POST', 'Users/backup-contact', { token: owner.token, body: { name, phoneNumber } });
    }
    const vets = await ctx.database.db
      .insert(sites)
      .values([
        { name: 'First Vet', googlePlaceId: `place-a-${pet.id}`, phoneNumber: '+15125550111', email: 'vet@example.com' },
        { name: 'Second Vet', googlePlaceId: `place-b-${pet.id}`, phoneNumber: '+15125550122' },
      ])
      .returning({ id: sites.id });
    await ctx.database.db.insert(sitePets).values(vets.map((v) => ({ siteId: v.id, petId: pet.id })));
    await reportMissing(pet.id);
    await ctx.database.db
      .insert(petAlerts)
      .values({ petId: pet.id, status: 'paid', missingDate: new Date('2024-01-01T15:00:00Z'), zipCode: '78701', incidentDescription: 'Ran off' });

    const { body } = await profileOf(pet.publicId);
    expect(body.result!.pet).toMatchObject({
      missingDate: '2024-01-01T15:00:00.000Z',
      zipcode: '78701',
      lastSeenPlace: 'Austin, TX 78701',
      alertStatus: 'paid',
      email: owner.input.email,
      phone: '+14155552671',
      backupContacts: [{ id: expect.any(Number), phoneNumber: '+14155550100' }],
    });
    expect(body.result!.sites).toEqual([{ id: vets[0]!.id, googlePlaceId: `place-a-${pet.id}`, phoneNumber: '+15125550111' }]);
    expect(JSON.stringify(body)).not.toContain('vet@example.com');
  });

  it("gives as Vet's Number the first vet still linked, in the directory or taken out of it", async () => {
    const { owner, pet } = await ownerWithPet();
    await activate(pet.id);
    const vets = await ctx.database.db
      .insert(sites)
      .values([
        { name: 'Removed Vet', phoneNumber: '+15125550131', source: 'admin' },
        { name: 'Closed Vet', phoneNumber: '+15125550132', source: 'admin' },
        { name: 'Current Vet', phoneNumber: '+15125550133', source: 'admin' },
      ])
      .returning({ id: sites.id });
    for (const vet of vets) {
      const linked = await call(ctx.app, 'POST', 'site/add-site-to-pets', { token: owner.token, body: { siteId: vet.id, petIds: [pet.id] } });
      expect(linked.status).toBe(200);
    }
    await call(ctx.app, 'DELETE', 'site/RemoveFromPet', { token: owner.token, body: { petId: pet.id, siteId: vets[0]!.id } });
    await ctx.database.db.update(sites).set({ isActive: false }).where(eq(sites.id, vets[1]!.id));
    await reportMissing(pet.id);

    const { body } = await profileOf(pet.publicId);
    expect(body.result!.sites).toEqual([{ id: vets[1]!.id, googlePlaceId: null, phoneNumber: '+15125550132' }]);
  });

  it('names the last-seen ZIP as a place, and gives a ZIP the ZIP table does not know as it is', async () => {
    const { pet } = await ownerWithPet();
    await reportMissing(pet.id, new Date('2024-01-01T15:00:00Z'), '63101');
    expect((await profileOf(pet.publicId)).body.result!.pet).toMatchObject({ zipcode: '63101', lastSeenPlace: 'Saint Louis, MO 63101' });

    await reportMissing(pet.id, new Date('2024-01-01T15:00:00Z'), '00000');
    expect((await profileOf(pet.publicId)).body.result!.pet).toMatchObject({ zipcode: '00000', lastSeenPlace: '00000' });
  });

  it('keeps the contact private for a missing pet whose owner does not share it', async () => {
    const { owner, pet } = await ownerWithPet({ shareContactInfo: false });
    await call(ctx.app, 'POST', 'Users/backup-contact', { token: owner.token, body: { name: 'Sam', phoneNumber: '(415) 555-0100' } });
    await reportMissing(pet.id);

    const { body } = await profileOf(pet.publicId);
    expect(body.result!.pet).toMatchObject({ missingDate: expect.any(String), email: null, phone: null, backupContacts: [] });
    expect(body.result!.sites).toEqual([]);
    expect(JSON.stringify(body)).not.toContain(owner.input.email);
  });

  it('stops sharing the contact once the pet is found, and says since when', async () => {
    const { pet } = await ownerWithPet();
    await reportMissing(pet.id, new Date(Date.now() - 5 * 86_400_000));
    await ctx.database.db.update(pets).set({ foundDate: new Date(Date.now() - 2 * 86_400_000) }).where(eq(pets.id, pet.id));

    const { body } = await profileOf(pet.publicId);
    expect(body.result!.pet).toMatchObject({ foundSince: '2 days ago', email: null, phone: null });
  });

  it('finds no profile by database id, by an unknown or malformed id, or of a removed pet', async () => {
    const { pet } = await ownerWithPet();
    for (const id of [String(pet.id), '6f1c1d9e-7a0b-4c55-9d1e-2f6a8b3c4d5e', 'not-a-uuid']) {
      const { status, body } = await profileOf(id);
      expect(status).toBe(404);
      expect(body.errors).toEqual([messages.notFound]);
    }
    await ctx.database.db.update(pets).set({ deletedAt: new Date() }).where(eq(pets.id, pet.id));
    expect((await profileOf(pet.publicId)).status).toBe(404);
  });

  it("hides the pets of a deactivated owner", async () => {
    const { owner, pet } = await ownerWithPet();
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, owner.user.id));
    expect((await profileOf(pet.publicId)).status).toBe(404);
    expect((await call(ctx.app, 'GET', `pet/short-url-details/${pet.shortId}`)).status).toBe(404);
  });

  it('answers 429 when one address walks through profile ids', async () => {
    const { pet } = await ownerWithPet();
    for (let i = 0; i < 60; i++) expect((await profileOf(pet.publicId, '10.0.0.61')).status).toBe(200);
    const limited = await profileOf(pet.publicId, '10.0.0.61');
    expect(limited.status).toBe(429);
    expect(limited.body.errors).toEqual([messages.tooManyRequests]);
  });
});

describe('GET pet/short-url-details/{id}', () => {
  it("gives every new pet a short id, not its database id, leading to the pet's public id", async () => {
    const first = await ownerWithPet();
    const second = await ownerWithPet();
    expect(first.pet.shortId).toMatch(/^[a-hj-km-np-z2-9]{8}$/);
    expect(first.pet.shortId).not.toBe(second.pet.shortId);

    const { status, body } = await call<string>(ctx.app, 'GET', `pet/short-url-details/${first.pet.shortId}`);
    expect(status).toBe(200);
    expect(body.result).toBe(first.pet.publicId);
    // A typed code may come in capitals.
    expect((await call<string>(ctx.app, 'GET', `pet/short-url-details/${first.pet.shortId!.toUpperCase()}`)).body.result).toBe(
      first.pet.publicId,
    );
    const listed = (await call<{ shortId: string }[]>(ctx.app, 'GET', 'pet/user-pets', { token: first.owner.token })).body.result!;
    expect(listed[0]!.shortId).toBe(first.pet.shortId);
  });

  it.each(['zzzzzzzz', 'abc', '1'])('says %s is an invalid short URL', async (code) => {
    const { status, body } = await call(ctx.app, 'GET', `pet/short-url-details/${code}`);
    expect(status).toBe(404);
    expect(body.errors).toEqual([messages.invalidShortUrl]);
  });
});

describe('public pages remembered between calls', () => {
  const petOf = async (publicId: string) => (await profileOf(publicId)).body.result?.pet;

  it('are served from memory: a write nothing announces is not seen until one that is announced', async () => {
    const { pet } = await ownerWithPet();
    expect(await petOf(pet.publicId)).toMatchObject({ petName: 'Biscuit' });
    await unannounced(pets, sql`update ${pets} set name = 'Pretzel' where id = ${pet.id}`);
    expect(await petOf(pet.publicId)).toMatchObject({ petName: 'Biscuit' });
    await ctx.database.db.update(pets).set({ name: 'Pretzel' }).where(eq(pets.id, pet.id));
    expect(await petOf(pet.publicId)).toMatchObject({ petName: 'Pretzel' });
  });

  it('show every write to the pet, its owner, breeds, contacts, vets and alerts, whoever makes it', async () => {
    const { owner, pet } = await ownerWithPet();
    expect(await petOf(pet.publicId)).toMatchObject({ petName: 'Biscuit', firstName: owner.input.firstName, breed: beagle.name });
    expect(await petOf(pet.publicId)).toMatchObject({ petName: 'Biscuit' });

    await ctx.database.db.update(pets).set({ name: 'Pretzel' }).where(eq(pets.id, pet.id));
    expect(await petOf(pet.publicId)).toMatchObject({ petName: 'Pretzel' });
    await ctx.database.db.update(users).set({ firstName: 'Robin' }).where(eq(users.id, owner.user.id));
    expect(await petOf(pet.publicId)).toMatchObject({ firstName: 'Robin' });
    await ctx.database.db.delete(petBreeds).where(eq(petBreeds.petId, pet.id));
    expect(await petOf(pet.publicId)).toMatchObject({ breed: null });

    await reportMissing(pet.id);
    expect((await petOf(pet.publicId))!.phone).not.toBeNull();
    await call(ctx.app, 'POST', 'Users/backup-contact', { token: owner.token, body: { name: 'Sam', phoneNumber: '(415) 555-0100' } });
    expect((await petOf(pet.publicId))!.backupContacts).toHaveLength(1);
    const [site] = await ctx.database.db
      .insert(sites)
      .values({ name: 'Austin Vet', googlePlaceId: `place-cached-${pet.id}`, phoneNumber: '+15125550141' })
      .returning({ id: sites.id });
    await ctx.database.db.insert(sitePets).values({ siteId: site!.id, petId: pet.id });
    expect((await profileOf(pet.publicId)).body.result!.sites).toHaveLength(1);
    await ctx.database.db.update(sites).set({ phoneNumber: '+15125550142' }).where(eq(sites.id, site!.id));
    expect((await profileOf(pet.publicId)).body.result!.sites).toEqual([{ id: site!.id, googlePlaceId: `place-cached-${pet.id}`, phoneNumber: '+15125550142' }]);
    await ctx.database.db
      .insert(petAlerts)
      .values({ petId: pet.id, status: 'paid', missingDate: new Date('2024-01-01T15:00:00Z'), zipCode: '78701', incidentDescription: 'Ran off' });
    expect(await petOf(pet.publicId)).toMatchObject({ alertStatus: 'paid' });

    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, owner.user.id));
    expect((await profileOf(pet.publicId)).status).toBe(404);
  });

  it('follow a short link to a pet removed, or of an owner deactivated, a moment ago', async () => {
    const removed = await ownerWithPet();
    const target = (code: string) => call<string>(ctx.app, 'GET', `pet/short-url-details/${code}`);
    expect((await target(removed.pet.shortId!)).body.result).toBe(removed.pet.publicId);
    await ctx.database.db.update(pets).set({ deletedAt: new Date() }).where(eq(pets.id, removed.pet.id));
    expect((await target(removed.pet.shortId!)).status).toBe(404);

    const deactivated = await ownerWithPet();
    expect((await target(deactivated.pet.shortId!)).body.result).toBe(deactivated.pet.publicId);
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, deactivated.owner.user.id));
    expect((await target(deactivated.pet.shortId!)).status).toBe(404);
  });
});

describe('GET utilities/settings', () => {
  it('tells the lookup page its production host', async () => {
    const { body } = await call<PublicSettings>(ctx.app, 'GET', 'utilities/settings');
    expect(body.result!.productionHost).toBe('registry.example.com');
  });
});

// Last in the file: it empties tables the other tests read.
describe('answers remembered between calls, when a table they read is emptied (TRUNCATE fires no row trigger)', () => {
  it('are all dropped', async () => {
    const { pet, chipId } = await ownerWithPet();
    await activate(pet.id);
    expect((await lookup(chipId)).body.result!.isRegistered).toBe(true);
    expect((await profileOf(pet.publicId)).body.result!.pet).toMatchObject({ breed: beagle.name });

    await ctx.database.db.execute(sql`truncate ${petBreeds}`);
    expect((await profileOf(pet.publicId)).body.result!.pet).toMatchObject({ breed: null });
    await ctx.database.db.execute(sql`truncate ${chips} cascade`);
    expect((await lookup(chipId)).body.result!.isRegistered).toBe(false);
  });
});
