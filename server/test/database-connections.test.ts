import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../src/db/client.js';
import { isDatabaseUnavailable } from '../src/db/errors.js';
import { ADMIN_URL } from './globalSetup.js';

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
});
