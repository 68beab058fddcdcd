import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../src/db/client.js';
import { isDatabaseUnavailable } from '../src/db/errors.js';
import { ADMIN_URL } from './globalSetup.js';
import { tcpProxy } from './tcpProxy.js';

/** The pool's connections to a PostgreSQL server, each with its statement timeout from the first statement on. */
describe.runIf(process.env.TEST_DB === 'postgres')('connections to a PostgreSQL server', () => {
  it('gives every new connection its statement timeout before its first statement, with no overlapping query', async () => {
    const warnings: Error[] = [];
    const heard = (warning: Error) => warnings.push(warning);
    process.on('warning', heard);
    const database = await openDatabase({ url: ADMIN_URL, dataDir: null, timeouts: { connectMs: 1000, statementMs: 1234 } });
    try {
      // Ten at once: the pool opens a connection for each, and each is asked at once.
      const timeouts = await Promise.all(
        Array.from({ length: 10 }, () => queryRows<{ statement_timeout: string }>(database.db, sql`show statement_timeout`)),
      );
      expect(timeouts.map(([row]) => row!.statement_timeout)).toEqual(Array(10).fill('1234ms'));
    } finally {
      await database.close();
      process.off('warning', heard);
    }
    expect(warnings.map((warning) => warning.message)).toEqual([]);
  });

  it("has the public answers wait to hear of the main pool's writes, not of its reads nor of the rate limits' counts, which run on connections of their own with the timeout", async () => {
    const database = await openDatabase({ url: ADMIN_URL, dataDir: null, timeouts: { connectMs: 1000, statementMs: 1234 } });
    try {
      const heard: (string | null)[] = [];
      const subscription = await database.listen('counters_probe', (payload) => heard.push(payload));
      heard.length = 0;
      await queryRows(database.db, sql`select 1`);
      await database.db.transaction(async (tx) => {
        await queryRows(tx, sql`select 2`);
      });
      expect(subscription.caughtUp()).toBeUndefined();
      // A statement that is not a read may have notified: the answers kept wait for a round trip on
      // the listening connection, after which its notification has been heard.
      await queryRows(database.db, sql`do $$ begin perform pg_notify('counters_probe', 'written'); end $$`);
      const catchingUp = subscription.caughtUp();
      expect(catchingUp).toBeInstanceOf(Promise);
      await catchingUp;
      expect(heard).toEqual(['written']);
      expect(subscription.caughtUp()).toBeUndefined();
      await database.db.transaction(async (tx) => {
        await queryRows(tx, sql`select 3`);
        await queryRows(tx, sql`do $$ begin perform pg_notify('counters_probe', 'in a transaction'); end $$`);
      });
      const catchingUpAgain = subscription.caughtUp();
      expect(catchingUpAgain).toBeInstanceOf(Promise);
      await catchingUpAgain;
      expect(heard).toEqual(['written', 'in a transaction']);
      const [counted] = await queryRows<{ statement_timeout: string }>(database.counters, sql`show statement_timeout`);
      expect(counted!.statement_timeout).toBe('1234ms');
      // A write on the rate limits' connections is not waited for either.
      await queryRows(database.counters, sql`do $$ begin perform 1; end $$`);
      expect(subscription.caughtUp()).toBeUndefined();
    } finally {
      await database.close();
    }
  });

  it.each([
    ['session', ['probe_statement']],
    ['transaction', []],
  ] as const)('prepares a named statement once on its connection, and none through a pooler in %s mode', async (poolMode, prepared) => {
    const database = await openDatabase({ url: ADMIN_URL, dataDir: null, poolMode });
    try {
      const names = await database.db.transaction(async (tx) => {
        const probe = tx.select({ one: sql<number>`1` }).from(sql`(select 1) probe`).where(sql`1 = ${sql.placeholder('one')}::int`).prepare('probe_statement');
        expect(await probe.execute({ one: 1 })).toEqual([{ one: 1 }]);
        expect(await probe.execute({ one: 2 })).toEqual([]);
        return queryRows<{ name: string }>(tx, sql`select name from pg_prepared_statements`);
      });
      expect(names.map((row) => row.name)).toEqual(prepared);
    } finally {
      await database.close();
    }
  });

  it('fails a transaction whose connection the server ends between two statements, and the process lives on', async () => {
    const database = await openDatabase({ url: ADMIN_URL, dataDir: null, timeouts: { connectMs: 1000, statementMs: 2000 } });
    try {
      const failure = await database.db
        .transaction(async (tx) => {
          const [held] = await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
          const admin = await openDatabase({ url: ADMIN_URL, dataDir: null });
          await queryRows(admin.db, sql`select pg_terminate_backend(${held!.pid})`);
          await admin.close();
          // The server's end reaches the held connection while no statement runs on it.
          await new Promise((resolve) => setTimeout(resolve, 300));
          await queryRows(tx, sql`select 1`);
        })
        .then(() => null, (error: unknown) => error);
      expect(isDatabaseUnavailable(failure)).toBe(true);
      expect((await queryRows<{ one: number }>(database.db, sql`select 1 as one`))[0]!.one).toBe(1);
    } finally {
      await database.close();
    }
  });

  /** A pool on the server through a proxy that can freeze, with short timeouts. */
  async function throughProxy() {
    const proxy = await tcpProxy(Number(new URL(ADMIN_URL).port));
    const url = new URL(ADMIN_URL);
    url.port = String(proxy.port);
    const database = await openDatabase({ url: url.toString(), dataDir: null, timeouts: { connectMs: 1000, statementMs: 300 } });
    return {
      proxy,
      database,
      pid: async () => (await queryRows<{ pid: number }>(database.db, sql`select pg_backend_pid() as pid`))[0]!.pid,
      async close() {
        proxy.thaw();
        await database.close();
        proxy.close();
      },
    };
  }

  it('gives back the connection of a transaction whose BEGIN the server never answered', async () => {
    const peer = await throughProxy();
    try {
      await peer.pid();
      peer.proxy.freeze();
      const failure = await peer.database.db.transaction((tx) => queryRows(tx, sql`select 1`)).then(() => null, (error: unknown) => error);
      peer.proxy.thaw();
      expect(isDatabaseUnavailable(failure)).toBe(true);
      // Nothing stays checked out (a restart under load would otherwise use the pool up).
      const use = peer.database.poolUse!().main;
      expect(use.total - use.idle).toBe(0);
      expect(await peer.database.db.transaction((tx) => queryRows<{ one: number }>(tx, sql`select 1 as one`))).toEqual([{ one: 1 }]);
    } finally {
      await peer.close();
    }
  });

  it('drops, rather than reuses, the connection of a transaction whose statement the server never answered', async () => {
    const peer = await throughProxy();
    try {
      const first = await peer.pid();
      const failure = await peer.database.db
        .transaction(async (tx) => {
          await queryRows(tx, sql`select 1`);
          peer.proxy.freeze();
          await queryRows(tx, sql`select 2`);
        })
        .then(() => null, (error: unknown) => error);
      peer.proxy.thaw();
      expect(isDatabaseUnavailable(failure)).toBe(true);
      expect(await peer.pid()).not.toBe(first);
    } finally {
      await peer.close();
    }
  });
});
