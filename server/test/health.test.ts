import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { createReadiness, type Readiness } from '../src/modules/operations/readiness.js';
import { ADMIN_URL } from './globalSetup.js';
import { createTestApp, endConnections, type TestContext } from './helpers.js';
import { tcpProxy } from './tcpProxy.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

async function probe(context: TestContext, path: '/livez' | '/readyz', remoteAddress = '127.0.0.1') {
  const response = await context.app.inject({ method: 'GET', url: path, remoteAddress });
  return { status: response.statusCode, result: (response.json() as { result: Readiness }).result };
}

const allReady: Readiness = { ready: true, database: 'ok', migrations: 'ok', listener: 'ok' };

describe('/livez and /readyz', () => {
  it('answer 200 while the process answers, and while it is ready to serve', async () => {
    expect(await probe(ctx, '/livez')).toEqual({ status: 200, result: { live: true } });
    expect(await probe(ctx, '/readyz')).toEqual({ status: 200, result: allReady });
  });

  it('are not rate-limited: a load balancer asks often from one address', async () => {
    for (let n = 0; n < 80; n++) {
      expect((await probe(ctx, '/readyz', '10.88.0.1')).status).toBe(200);
      expect((await probe(ctx, '/livez', '10.88.0.1')).status).toBe(200);
    }
  });

  it('is not ready while a migration of this build is missing from the database', async () => {
    const [newest] = await queryRows<{ id: number; hash: string; created_at: string }>(
      ctx.database.db,
      sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    await ctx.database.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${newest!.id}`);
    onTestFinished(async () => {
      await ctx.database.db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest!.id}, ${newest!.hash}, ${newest!.created_at})`);
    });
    expect(await probe(ctx, '/readyz')).toEqual({ status: 503, result: { ...allReady, ready: false, migrations: 'pending' } });
    expect((await probe(ctx, '/livez')).status).toBe(200);
  });

  it('is not ready on a database never migrated', async () => {
    const check = createReadiness({ database: ctx.database, listening: () => true });
    expect(await check()).toEqual(allReady);
    await ctx.database.db.execute(sql`alter table drizzle.__drizzle_migrations rename to __drizzle_migrations_aside`);
    onTestFinished(async () => {
      await ctx.database.db.execute(sql`alter table drizzle.__drizzle_migrations_aside rename to __drizzle_migrations`);
    });
    expect(await check()).toEqual({ ...allReady, ready: false, migrations: 'pending' });
  });

  it('is not ready while changes to the public answers are not heard', async () => {
    let live = false;
    const check = createReadiness({ database: ctx.database, listening: () => live });
    expect(await check()).toEqual({ ...allReady, ready: false, listener: 'down' });
    live = true;
    expect(await check()).toEqual(allReady);
  });

  it.runIf(process.env.TEST_DB !== 'postgres')('is not ready once the embedded database is closed, and the process still answers', async () => {
    const closed = await createTestApp();
    try {
      await closed.database.close();
      expect(await probe(closed, '/readyz')).toEqual({ status: 503, result: { ready: false, database: 'unreachable', migrations: 'unchecked', listener: 'down' } });
      expect((await probe(closed, '/livez')).status).toBe(200);
    } finally {
      await closed.app.close();
    }
  });

  it('is documented in the OpenAPI document beside the utilities', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/v2/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/livez', '/readyz', '/api/v2/utilities/health-check']));
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });
});

/** A PostgreSQL server reached through a proxy that plays the outage (see database-outage.test.ts). */
describe.runIf(process.env.TEST_DB === 'postgres')('/readyz on a PostgreSQL server', () => {
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let served: TestContext;

  beforeAll(async () => {
    proxy = await tcpProxy(Number(new URL(ADMIN_URL).port));
    served = await createTestApp({ databasePort: proxy.port, env: { DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '2000' } });
  });
  afterAll(async () => {
    proxy.close();
    await served.close();
  });


  it('says the listener is down while its connection is lost, and ready again once it listens anew', async () => {
    expect(await probe(served, '/readyz')).toEqual({ status: 200, result: allReady });
    await endConnections(served);
    await vi.waitFor(async () => expect(await probe(served, '/readyz')).toEqual({ status: 503, result: { ...allReady, ready: false, listener: 'down' } }), {
      timeout: 3000,
      interval: 20,
    });
    await vi.waitFor(async () => expect(await probe(served, '/readyz')).toEqual({ status: 200, result: allReady }), { timeout: 10_000, interval: 100 });
  });

  it('is not ready while the server is down, and the process still answers; ready again by itself', async () => {
    proxy.refuse();
    onTestFinished(() => proxy.accept());
    await endConnections(served);
    await vi.waitFor(
      async () => expect(await probe(served, '/readyz')).toEqual({ status: 503, result: { ready: false, database: 'unreachable', migrations: 'unchecked', listener: 'down' } }),
      { timeout: 5000, interval: 100 },
    );
    expect((await probe(served, '/livez')).status).toBe(200);
    await proxy.accept();
    await vi.waitFor(async () => expect(await probe(served, '/readyz')).toEqual({ status: 200, result: allReady }), { timeout: 10_000, interval: 100 });
  });
});
