import { describeChipNumber, type MicrochipLookup } from '@petreg/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMailer } from '../src/adapters/mail/index.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, queryRows, type DatabaseHandle } from '../src/db/client.js';
import { chips, pets } from '../src/db/schema.js';
import { ChipIndex } from '../src/modules/public/chipIndex.js';
import { createPublicCaches } from '../src/modules/public/caches.js';
import { createOpenLookup } from '../src/modules/public/openLookup.js';
import { createPublicService } from '../src/modules/public/service.js';
import { ADMIN_URL } from './globalSetup.js';
import { call, createTestApp, registerPet, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const silent = { warn: () => {} };
const lookup = (app: TestContext['app'], chipId: string) => call<MicrochipLookup>(app, 'GET', `utilities/microchip-lookup?id=${chipId}`);
const registered = async (app: TestContext['app'], chipId: string) => (await lookup(app, chipId)).body.result!.isRegistered;

/** What a completed payment does to the records (the payment flow is tested on its own). */
async function activate(db: DatabaseHandle['db'], petId: number) {
  await db.update(pets).set({ isActive: true }).where(eq(pets.id, petId));
  await db.update(chips).set({ isActive: true, expirationDate: new Date(Date.now() + 365 * 86_400_000) }).where(eq(chips.petId, petId));
}

/** The public service on its own caches; `indexed: false` leaves its index unloaded, so every number is read from the database. */
async function publicService(indexed: boolean) {
  const caches = await createPublicCaches(ctx.database, silent);
  if (indexed) await caches.chipIndex.load();
  else caches.chipIndex.subscription = null;
  const service = createPublicService({ db: ctx.database.db, caches });
  const open = createOpenLookup({ publicPages: service, registry: { name: 'Registry', phone: '1-800-555-0100', phoneHref: 'tel:18005550100' }, publicUrl: 'https://registry.example.com' });
  return { caches, service, open };
}

describe('the index of chip numbers held', () => {
  it('answers a number no chip holds without reading the database, in the same words as the database does', async () => {
    const owner = await signUpOwner(ctx.app);
    const held = await registerPet(ctx.app, owner.token);
    const fast = await publicService(true);
    const slow = await publicService(false);
    try {
      // What reaches the driver (a pool or PGlite): the reads are prepared once, so building none proves nothing.
      const { $client: driver } = ctx.database.db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } };
      const statements = vi.spyOn(driver, 'query');
      for (const chipId of ['985141000999999', '123456789', '0A12345678', '999000000000001']) {
        statements.mockClear();
        const quick = await fast.service.lookup(chipId);
        expect(statements).not.toHaveBeenCalled();
        const read = await slow.service.lookup(chipId);
        expect(statements).toHaveBeenCalledTimes(1);
        expect(JSON.stringify(quick)).toBe(JSON.stringify(read));
        expect(quick).toEqual({ result: null, isRegistered: false, chip: describeChipNumber(chipId) });
        // The open lookup shares the path: the same answer, and no read.
        statements.mockClear();
        expect(JSON.stringify(await fast.open.lookup(chipId))).toBe(JSON.stringify(await slow.open.lookup(chipId)));
        expect(statements).not.toHaveBeenCalled();
      }
      statements.mockClear();
      await fast.service.lookup(held.chips[0]!.chipId);
      expect(statements).toHaveBeenCalledTimes(1);
      statements.mockRestore();
    } finally {
      await Promise.all([fast.caches.close(), slow.caches.close()]);
    }
  });

  it('finds a chip registered a moment ago through the API, and a number changed on its pet', async () => {
    const owner = await signUpOwner(ctx.app);
    const chipId = uniqueChip();
    expect(await registered(ctx.app, chipId)).toBe(false);
    const pet = await registerPet(ctx.app, owner.token, chipId);
    await activate(ctx.database.db, pet.id);
    expect(await registered(ctx.app, chipId)).toBe(true);
    // A number changed on the pet: the new one is found at once, the old one no longer.
    const changed = uniqueChip();
    await ctx.database.db.update(chips).set({ chipId: changed }).where(eq(chips.petId, pet.id));
    expect(await registered(ctx.app, changed)).toBe(true);
    expect(await registered(ctx.app, chipId)).toBe(false);
  });

  it('reads every number from the database until it has loaded, and loads again after anything may have been missed', async () => {
    const caches = await createPublicCaches(ctx.database, silent);
    try {
      const index = caches.chipIndex;
      await index.load();
      const owner = await signUpOwner(ctx.app);
      const pet = await registerPet(ctx.app, owner.token);
      const chipId = pet.chips[0]!.chipId;
      expect(await index.mayHold(chipId)).toBe(true);
      expect(await index.mayHold('985141000999998')).toBe(false);
      // Something may have been missed (a lost listening connection, a TRUNCATE): nothing is trusted until the next load.
      index.onChange(null);
      expect(await index.mayHold('985141000999998')).toBe(true);
      await index.load();
      expect(await index.mayHold('985141000999998')).toBe(false);
      expect(await index.mayHold(chipId)).toBe(true);
      expect(index.size.chips).toBeGreaterThan(0);
    } finally {
      await caches.close();
    }
  });

  it('trusts nothing without a listening connection', async () => {
    const index = new ChipIndex(ctx.database.db);
    await index.load();
    expect(await index.mayHold('985141000999997')).toBe(true);
    index.subscription = { live: () => false, unanswered: () => false, caughtUp: () => undefined, close: async () => {} };
    expect(await index.mayHold('985141000999997')).toBe(true);
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('two instances on one PostgreSQL server', () => {
  let other: { app: TestContext['app']; database: DatabaseHandle };

  beforeAll(async () => {
    // The second instance reaches the same database as the first, as a scaled-out deployment's do.
    const [{ name }] = (await queryRows<{ name: string }>(ctx.database.db, sql`select current_database() as name`)) as [{ name: string }];
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: ctx.outboxDir, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
    const database = await openDatabase({ url: url.toString(), dataDir: null, timeouts: config.databaseTimeouts });
    const app = await buildApp({
      config,
      database,
      mailer: createMailer({ from: config.mailFrom, outboxDir: ctx.outboxDir }),
      jwtSecret: 'test-secret-test-secret-test-secret!',
      webRoot: '/nonexistent',
    });
    await app.ready();
    other = { app, database };
  });
  afterAll(async () => {
    await other.app.close();
    await other.database.close();
  });

  /** The other instance hears a write by notification, a few milliseconds after its commit. */
  const seenOnOther = (chipId: string, expected: boolean) => expect.poll(() => registered(other.app, chipId), { timeout: 1000, interval: 10 }).toBe(expected);

  it('finds on one instance a chip registered through the other, and follows its removal', async () => {
    const chipId = uniqueChip();
    expect(await registered(other.app, chipId)).toBe(false);
    const owner = await signUpOwner(ctx.app);
    const pet = await registerPet(ctx.app, owner.token, chipId);
    await activate(ctx.database.db, pet.id);
    await seenOnOther(chipId, true);
    await ctx.database.db.update(pets).set({ deletedAt: new Date() }).where(eq(pets.id, pet.id));
    await seenOnOther(chipId, false);
  });

  it('finds on one instance a number an operator wrote through the other', async () => {
    const owner = await signUpOwner(ctx.app);
    const pet = await registerPet(ctx.app, owner.token);
    await activate(ctx.database.db, pet.id);
    const changed = uniqueChip();
    expect(await registered(other.app, changed)).toBe(false);
    await ctx.database.db.update(chips).set({ chipId: changed }).where(eq(chips.petId, pet.id));
    await seenOnOther(changed, true);
  });
});
