import { messages, type MicrochipLookup } from '@petreg/contract';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { isDatabaseUnavailable } from '../src/db/errors.js';
import { chips, pets } from '../src/db/schema.js';
import { ADMIN_URL } from './globalSetup.js';
import { call, createTestApp, registerPet, signUpOwner, uniqueChip, type TestContext } from './helpers.js';
import { tcpProxy } from './tcpProxy.js';

/**
 * The portal on a PostgreSQL server that restarts or stops answering, reached through a proxy that
 * plays the outage. The embedded database has no connection to lose.
 */
describe.runIf(process.env.TEST_DB === 'postgres')('a PostgreSQL server out of reach', () => {
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let ctx: TestContext;
  const lost: Error[] = [];

  beforeAll(async () => {
    proxy = await tcpProxy(Number(new URL(ADMIN_URL).port));
    ctx = await createTestApp({
      databasePort: proxy.port,
      env: { DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '2000' },
    });
    ctx.database.onConnectionError((error) => lost.push(error));
  });
  afterAll(async () => {
    proxy.close();
    await ctx.close();
  });

  const states = () => call(ctx.app, 'GET', 'utilities/states');
  const health = () => call(ctx.app, 'GET', 'utilities/health-check');
  const lookup = (chipId: string) => call<MicrochipLookup>(ctx.app, 'GET', `utilities/microchip-lookup?id=${chipId}`);
  /** How long a call took to answer, and its answer. */
  const timed = async <T>(answer: () => Promise<T>) => {
    const started = performance.now();
    const result = await answer();
    return { ...result, ms: performance.now() - started };
  };

  /** A registered chip whose lookup this instance remembers. */
  async function rememberedChip() {
    const owner = await signUpOwner(ctx.app);
    const pet = await registerPet(ctx.app, owner.token, uniqueChip('985'));
    await ctx.database.db.update(pets).set({ isActive: true }).where(eq(pets.id, pet.id));
    await ctx.database.db.update(chips).set({ isActive: true }).where(eq(chips.petId, pet.id));
    const chipId = pet.chips[0]!.chipId;
    expect((await lookup(chipId)).body.result!.isRegistered).toBe(true);
    return chipId;
  }

  // First: the listening connection is live from the start (after a restart it takes a second to listen again).
  it('answers remembered lookups, and the health check within a second, while it stops answering', async () => {
    const chipId = await rememberedChip();
    proxy.freeze();
    try {
      const unhealthy = await timed(health);
      expect(unhealthy.status).toBe(503);
      // A second, with room for a busy machine; without the bound it waits as long as the freeze.
      expect(unhealthy.ms).toBeLessThan(2500);
      // Served from memory: at most the listening connection's two seconds to find the database frozen.
      const remembered = await timed(() => lookup(chipId));
      expect(remembered.status).toBe(200);
      expect(remembered.body.result!.isRegistered).toBe(true);
      expect(remembered.ms).toBeLessThan(5000);
      expect((await timed(() => lookup(chipId))).ms).toBeLessThan(1000);
      // A finder's address is held to its limit, counted on the server: within a second the count is kept in this process instead.
      const finder = await timed(() => call<MicrochipLookup>(ctx.app, 'GET', `utilities/microchip-lookup?id=${chipId}`, { ip: '10.71.0.1' }));
      expect(finder.status).toBe(200);
      expect(finder.ms).toBeLessThan(2500);
      expect((await timed(() => call(ctx.app, 'GET', `utilities/microchip-lookup?id=${chipId}`, { ip: '10.71.0.2' }))).ms).toBeLessThan(1000);
      // A question the database must answer ends at the timeouts: 503, not a wait as long as the freeze.
      const unknown = await timed(() => lookup(uniqueChip('985')));
      expect(unknown.status).toBe(503);
      expect(unknown.headers['retry-after']).toBe('5');
      expect(unknown.ms).toBeLessThan(6000);
    } finally {
      proxy.thaw();
    }
    expect((await health()).status).toBe(200);
    expect((await lookup(uniqueChip('985'))).body.result!.isRegistered).toBe(false);
  });

  it('answers 503 with Retry-After while a restart keeps it down, never 500, and serves again by itself', async () => {
    await Promise.all(Array.from({ length: 5 }, () => states()));
    const [{ name }] = (await queryRows<{ name: string }>(ctx.database.db, sql`select current_database() as name`)) as [{ name: string }];
    // The server shuts down: it ends every connection (57P01) and takes no new one until it is back.
    proxy.refuse();
    onTestFinished(() => proxy.accept());
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
    } finally {
      await admin.end();
    }
    // The pool's idle connections heard it; the process lives on.
    await vi.waitFor(() => expect(lost.map((error) => (error as { code?: string }).code)).toContain('57P01'));

    const login = (ip?: string) => call(ctx.app, 'POST', 'Users/login', { body: { email: 'someone@example.com', password: 'Secret#123' }, ip });
    // From an address held to a limit too: the limit's count is no 500.
    for (const down of [await states(), await lookup(uniqueChip('985')), await login(), await login('10.71.1.1')]) {
      expect(down.status).toBe(503);
      expect(down.headers['retry-after']).toBe('5');
      expect(down.body.errors).toEqual([messages.serviceUnavailable]);
    }
    expect((await health()).status).toBe(503);

    await proxy.accept();
    expect((await states()).status).toBe(200);
    expect((await health()).status).toBe(200);
    expect((await signUpOwner(ctx.app)).token).toBeTruthy();
  });

  it('has the server end a statement that runs past DATABASE_STATEMENT_TIMEOUT_MS', async () => {
    const started = performance.now();
    const error = (await ctx.database.db.execute(sql`select pg_sleep(10)`).catch((e: unknown) => e)) as { cause?: { code?: string } };
    expect(error.cause?.code).toBe('57014');
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
