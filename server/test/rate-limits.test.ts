import { createHmac } from 'node:crypto';
import { messages } from '@petreg/contract';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type DatabaseHandle } from '../src/db/client.js';
import { rateLimitCounters } from '../src/db/schema.js';
import { limits as userLimits } from '../src/modules/users/routes.js';
import { PER_ACCOUNT_MAX } from '../src/modules/users/signIn.js';
import { countedInDatabase, sweepRateLimitCounters } from '../src/rateLimitStore.js';
import { ADMIN_URL } from './globalSetup.js';
import { call, createTestApp, signUpOwner, uniqueEmail, type Answer, type TestContext } from './helpers.js';
import { tcpProxy } from './tcpProxy.js';

const tooMany = (answer: Answer<unknown>) => answer.status === 429 && answer.body.errors.join() === messages.tooManyRequests;

/** The try (1 for the first) that was refused as too many, or 0 when none was. */
const refusedAt = (answers: Answer<unknown>[]) => answers.findIndex(tooMany) + 1;

/** A store as the plugin makes it for a route, and its hits as promises. */
function storeFor(Store: ReturnType<typeof countedInDatabase>, url: string) {
  const store = new Store({}).child({ routeInfo: { method: 'GET', url } } as unknown as Parameters<FastifyRateLimitStore['child']>[0]);
  return (key: string, windowMs: number) =>
    new Promise<{ current: number; ttl: number }>((resolve, reject) =>
      store.incr(key, (error, result) => (error ? reject(error) : resolve(result!)), windowMs, 10),
    );
}

const quietLog = { warn: () => {} };

// The store itself runs on either database; the portal uses it on a server (the embedded one counts in memory).
describe('the rate-limit store on the database', () => {
  let ctx: TestContext;
  // A clock of its own, years back, so the sweep below touches no other test's rows.
  const start = Date.parse('2001-02-03T04:05:06.000Z');
  let clock = start;
  let hit: ReturnType<typeof storeFor>;

  beforeAll(async () => {
    ctx = await createTestApp();
    const Store = countedInDatabase({ db: ctx.database.db, secret: 'store-test', log: quietLog, now: () => clock });
    hit = storeFor(Store, '/counted');
  });
  afterAll(() => ctx.close());

  it('counts fixed windows: the ttl runs down, and the count starts again when the window is over', async () => {
    expect(await hit('10.0.0.1', 60_000)).toEqual({ current: 1, ttl: 60_000 });
    clock = start + 400;
    expect(await hit('10.0.0.1', 60_000)).toEqual({ current: 2, ttl: 59_600 });
    clock = start + 59_999;
    expect(await hit('10.0.0.1', 60_000)).toEqual({ current: 3, ttl: 1 });
    clock = start + 60_000;
    expect(await hit('10.0.0.1', 60_000)).toEqual({ current: 1, ttl: 60_000 });
    expect(await hit('10.0.0.2', 60_000)).toEqual({ current: 1, ttl: 60_000 });
  });

  it('counts each route apart, and keeps neither address nor e-mail in the table', async () => {
    const Store = countedInDatabase({ db: ctx.database.db, secret: 'store-test', log: quietLog, now: () => clock });
    const other = storeFor(Store, '/other');
    const again = storeFor(Store, '/counted');
    clock = start + 100_000;
    expect((await again('owner@example.com', 3_600_000)).current).toBe(1);
    expect((await again('owner@example.com', 3_600_000)).current).toBe(2);
    expect((await other('owner@example.com', 3_600_000)).current).toBe(1);
    const keys = await ctx.database.db.select({ key: rateLimitCounters.key }).from(rateLimitCounters);
    expect(keys.some(({ key }) => /example|10\.0/.test(key))).toBe(false);
    // The same key as every earlier release wrote for it: counts in progress go on across an upgrade.
    const keyed = createHmac('sha256', 'store-test').update('rate-limit\nGET /counted\nowner@example.com').digest('base64url');
    expect(keys.map(({ key }) => key)).toContain(keyed);
  });

  it('counts hits that come together one by one, in the order they came, from two instances at once', async () => {
    clock = start + 150_000;
    // Two instances' stores (as two processes make them), each taking many addresses at once, the same ones in another order.
    const first = storeFor(countedInDatabase({ db: ctx.database.db, secret: 'store-test', log: quietLog, now: () => clock }), '/together');
    const second = storeFor(countedInDatabase({ db: ctx.database.db, secret: 'store-test', log: quietLog, now: () => clock }), '/together');
    const addresses = Array.from({ length: 40 }, (_, i) => `10.1.0.${i}`);
    const counts = await Promise.all([
      ...addresses.flatMap((address) => [first(address, 60_000), first(address, 60_000)]),
      ...addresses.toReversed().map((address) => second(address, 60_000)),
    ]);
    // Each address was hit three times: its hits were counted 1, 2 and 3, whichever instance counted them.
    const byAddress = new Map<string, number[]>();
    [...addresses.flatMap((address) => [address, address]), ...addresses.toReversed()].forEach((address, i) =>
      byAddress.set(address, [...(byAddress.get(address) ?? []), counts[i]!.current]),
    );
    for (const seen of byAddress.values()) expect(seen.toSorted()).toEqual([1, 2, 3]);
    // An instance's own hits of one address are counted in the order they came.
    for (const address of addresses) {
      const [a, b] = byAddress.get(address)!;
      expect(a).toBeLessThan(b!);
    }
    expect(counts.every(({ ttl }) => ttl === 60_000)).toBe(true);
    expect((await first('10.1.0.0', 60_000)).current).toBe(4);
  });

  it('counts the hits of a statement that fails in the process, and says so, rather than refusing them', async () => {
    const warnings: string[] = [];
    const Store = countedInDatabase({ db: ctx.database.db, secret: 'store-test', log: { warn: (...args: unknown[]) => void warnings.push(String(args[1])) }, now: () => clock });
    const failing = storeFor(Store, '/failing');
    // A window the database cannot add to a time: the statement fails.
    expect((await failing('10.2.0.1', Number.MAX_VALUE)).current).toBe(1);
    expect((await failing('10.2.0.1', Number.MAX_VALUE)).current).toBe(2);
    expect(warnings).toEqual(Array(2).fill('the database could not count rate limits: these hits are counted in this process'));
    // The next statement that works is counted in the database again.
    expect((await failing('10.2.0.2', 60_000)).current).toBe(1);
    expect(warnings).toHaveLength(2);
  });

  it.runIf(process.env.TEST_DB === 'postgres')('sweeps around the rows a count holds, rather than waiting for them', async () => {
    clock = start + 300_000;
    await hit('10.0.0.4', 60_000);
    await hit('10.0.0.5', 60_000);
    const later = new Date(start + 400_000);
    const [held] = await ctx.database.db.select({ key: rateLimitCounters.key }).from(rateLimitCounters).where(lt(rateLimitCounters.expiresAt, later)).limit(1);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holdsTheRow = new Promise<void>((resolve) => (locked = resolve));
    const holding = ctx.database.db.transaction(async (tx) => {
      await tx.select().from(rateLimitCounters).where(sql`${rateLimitCounters.key} = ${held!.key}`).for('update');
      locked();
      await released;
    });
    try {
      // The sweep starts only once the row is held: on a busy machine it could otherwise run first and find nothing held.
      await Promise.race([holdsTheRow, holding]);
      await sweepRateLimitCounters(ctx.database.db, later);
      const left = await ctx.database.db.select({ key: rateLimitCounters.key }).from(rateLimitCounters).where(lt(rateLimitCounters.expiresAt, later));
      expect(left.map(({ key }) => key)).toEqual([held!.key]);
    } finally {
      release();
      await holding;
    }
    await sweepRateLimitCounters(ctx.database.db, later);
    expect(await ctx.database.db.$count(rateLimitCounters, lt(rateLimitCounters.expiresAt, later))).toBe(0);
  });

  it('sweeps the rows whose window is over', async () => {
    const before = new Date(Date.parse('2002-01-01T00:00:00Z'));
    const old = () => ctx.database.db.$count(rateLimitCounters, lt(rateLimitCounters.expiresAt, before));
    clock = start + 200_000;
    await hit('10.0.0.3', 60_000);
    expect(await old()).toBeGreaterThan(0);
    await sweepRateLimitCounters(ctx.database.db, new Date(start + 200_000 + 30_000));
    // The window still open stays.
    expect((await hit('10.0.0.3', 60_000)).current).toBe(2);
    await sweepRateLimitCounters(ctx.database.db, before);
    expect(await old()).toBe(0);
  });
});

/**
 * Two instances of the portal on one PostgreSQL server database, as two processes behind a load
 * balancer: each limit gives way on the same try as it would on one instance.
 */
describe.runIf(process.env.TEST_DB === 'postgres')('limits across instances on a PostgreSQL server', () => {
  let a: TestContext;
  let b: TestContext;
  /** A's and B's turn in alternation. */
  const instance = (i: number) => (i % 2 === 0 ? a : b).app;

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({ instanceOf: a });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('refuses the per-address sign-in over its limit on the same try as one instance, with Retry-After', async () => {
    const ip = '10.61.0.1';
    const login = (i: number) => call(instance(i), 'POST', 'Users/login', { body: { email: uniqueEmail(), password: 'Wrong#123' }, ip });
    const first = await login(0);
    const limit = Number(first.headers['x-ratelimit-limit']);
    const windowSeconds = Number(first.headers['x-ratelimit-reset']);
    expect(limit).toBeGreaterThan(1);
    const answers = [first];
    for (let i = 1; i <= limit; i++) answers.push(await login(i));
    expect(answers.slice(0, limit).map((answer) => answer.status)).toEqual(Array(limit).fill(400));
    expect(refusedAt(answers)).toBe(limit + 1);
    expect(answers[limit - 1]!.headers['x-ratelimit-remaining']).toBe('0');
    const retryAfter = Number(answers[limit]!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
    // Both instances refuse it now; another address is not held.
    expect(tooMany(await login(limit + 1))).toBe(true);
    expect((await call(a.app, 'POST', 'Users/login', { body: { email: uniqueEmail(), password: 'Wrong#123' }, ip: '10.61.0.2' })).status).toBe(400);
  });

  it('holds an account to its password guesses from strangers\' addresses on either instance', async () => {
    const owner = await signUpOwner(a.app);
    const guess = (i: number) => call(instance(i), 'POST', 'Users/login', { body: { email: owner.input.email, password: 'Wrong#123' }, ip: `10.65.0.${i + 1}` });
    const answers: Answer<unknown>[] = [];
    for (let i = 0; i <= PER_ACCOUNT_MAX; i++) answers.push(await guess(i));
    expect(refusedAt(answers)).toBe(PER_ACCOUNT_MAX + 1);
  });

  it('holds an account to its alert sends from every address on either instance: A refuses once B has taken the rest', async () => {
    const owner = await signUpOwner(a.app);
    // The body is refused after the send is counted, as a real one is: nothing goes out.
    const send = (app: TestContext['app'], ip: string) => call(app, 'POST', 'petalert/send-mail-from-pet-alert', { token: owner.token, body: {}, ip });
    const first = await send(a.app, '10.62.0.1');
    const limit = Number(first.headers['x-ratelimit-limit']);
    const answers = [first];
    for (let i = 1; i < limit; i++) answers.push(await send(i < limit / 2 ? a.app : b.app, `10.62.0.${i + 1}`));
    expect(answers.some(tooMany)).toBe(false);
    expect(tooMany(await send(a.app, '10.62.1.1'))).toBe(true);
    expect(tooMany(await send(b.app, '10.62.1.2'))).toBe(true);
    // Another account is not held.
    const other = await signUpOwner(b.app);
    expect(tooMany(await call(b.app, 'POST', 'petalert/send-mail-from-pet-alert', { token: other.token, body: {}, ip: '10.62.1.3' }))).toBe(false);
  });

  const perEmail = [
    {
      route: 'forgot-password',
      ...userLimits.forgotPassword.email,
      ask: (app: TestContext['app'], email: string, ip: string) => call(app, 'POST', 'Users/forgot-password', { body: { email }, ip }),
    },
    {
      route: 'set-password',
      ...userLimits.setPassword.email,
      ask: (app: TestContext['app'], email: string, ip: string) =>
        call(app, 'POST', 'Users/set-password-by-token', { body: { email, token: 'not-a-token', password: 'Secret#123' }, ip }),
    },
    {
      route: 'email-exists',
      ...userLimits.emailExists.email,
      ask: (app: TestContext['app'], email: string, ip: string) => call(app, 'GET', `Users/email-exists?email=${encodeURIComponent(email)}`, { ip }),
    },
  ];

  it.each(perEmail)('holds the per-e-mail limit of $route across instances and addresses, with Retry-After', async ({ max: limit, window, ask }) => {
    const email = uniqueEmail();
    const answers: Answer<unknown>[] = [];
    // A new address each try, so only the e-mail's count can refuse.
    for (let i = 0; i <= limit; i++) answers.push(await ask(instance(i), email, `10.63.${limit}.${i + 1}`));
    expect(answers.slice(0, limit).some((answer) => answer.status === 429 || answer.status >= 500)).toBe(false);
    expect(refusedAt(answers)).toBe(limit + 1);
    const retryAfter = Number(answers[limit]!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(window / 1000);
    expect(tooMany(await ask(instance(limit + 1), email, '10.63.200.1'))).toBe(true);
    // Another e-mail from the same address is answered.
    expect((await ask(a.app, uniqueEmail(), `10.63.${limit}.1`)).status).not.toBe(429);
  });
});

/** The store through a proxy that plays the outage: a limit check never waits out the outage nor answers 500. */
describe.runIf(process.env.TEST_DB === 'postgres')('the rate-limit store while the server is out of reach', () => {
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let ctx: TestContext;
  let database: DatabaseHandle;
  let clock = Date.now();
  let hit: ReturnType<typeof storeFor>;
  const warnings: string[] = [];

  /** The test's database, reached through the proxy. */
  async function throughProxy() {
    const [{ name }] = (await queryRows<{ name: string }>(ctx.database.db, sql`select current_database() as name`)) as [{ name: string }];
    const url = new URL(ADMIN_URL.replace(/\/test$/, `/${name}`));
    url.port = String(proxy.port);
    return openDatabase({ url: url.toString(), dataDir: null, timeouts: { connectMs: 1000, statementMs: 2000 } });
  }

  beforeAll(async () => {
    ctx = await createTestApp();
    proxy = await tcpProxy(Number(new URL(ADMIN_URL).port));
    database = await throughProxy();
    const Store = countedInDatabase({ db: database.db, secret: 'outage-test', log: { warn: (...args: unknown[]) => void warnings.push(String(args[1])) }, now: () => clock });
    hit = storeFor(Store, '/outage');
  });
  afterAll(async () => {
    proxy.close();
    await database.close();
    await ctx.close();
  });

  it('counts in the process within a second of a frozen server, holds the limit there, and counts on the server again once it answers', async () => {
    expect((await hit('10.64.0.1', 60_000)).current).toBe(1);
    proxy.freeze();
    try {
      const started = performance.now();
      const first = hit('10.64.0.1', 60_000);
      // A hit that comes while the first waits for the server: not sent to it again once the first is given up.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const secondSent = performance.now();
      const second = hit('10.64.0.1', 60_000);
      // Counted in this process from here: the server's count of 1 is not seen.
      expect(await first).toMatchObject({ current: 1, ttl: 60_000 });
      expect(performance.now() - started).toBeLessThan(1500);
      expect((await second).current).toBe(2);
      expect(performance.now() - secondSent).toBeLessThan(1000);
      expect(warnings).toHaveLength(1);
      const quick = performance.now();
      for (let i = 3; i <= 6; i++) expect((await hit('10.64.0.1', 60_000)).current).toBe(i);
      expect(performance.now() - quick).toBeLessThan(500);
      expect(warnings).toHaveLength(1);
    } finally {
      proxy.thaw();
    }
    // Five seconds on, the server is asked again, and its own count goes on (with the hit it answers late, or not yet).
    clock += 5000;
    expect([2, 3]).toContain((await hit('10.64.0.1', 60_000)).current);
  });

  it('counts in the process while the server refuses connections', async () => {
    // Connections made before stay up: a new pool finds the server down.
    proxy.refuse();
    await database.close();
    database = await throughProxy();
    const Store = countedInDatabase({ db: database.db, secret: 'outage-test', log: quietLog, now: () => clock });
    const refusedHit = storeFor(Store, '/refused');
    try {
      const started = performance.now();
      expect((await refusedHit('10.64.0.2', 60_000)).current).toBe(1);
      expect((await refusedHit('10.64.0.2', 60_000)).current).toBe(2);
      expect(performance.now() - started).toBeLessThan(1500);
    } finally {
      await proxy.accept();
    }
  });
});
