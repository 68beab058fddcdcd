import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PoolMode } from './transactionPool.js';
import type * as schema from './schema.js';

export { DatabaseInUseError } from './dataDirLock.js';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Subscription {
  live(): boolean;
  /**
   * The database stopped answering (a frozen server or link) while nothing could be missed: no write
   * commits through it either, so what was remembered may be served as it was until it answers again.
   */
  unanswered(): boolean;
  /**
   * Resolves once every notification of a write this process made so far has been heard (nothing to
   * wait for: undefined). A server's notifications come on another connection, a moment after the commit.
   * Another instance's writes are heard as they come: a read here may see one a moment before it is.
   */
  caughtUp(): Promise<void> | undefined;
  close(): Promise<void>;
}

/** How long the health check waits for the database. */
const PING_WITHIN_MS = 1000;

/** Limits on waiting for a PostgreSQL server (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS). */
export interface DatabaseTimeouts {
  connectMs: number;
  statementMs: number;
}

export interface DatabaseHandle {
  db: Database;
  /**
   * For statements that change nothing a cache keeps (the rate limits' counts): on a server, a pool
   * of its own, whose statements the public answers do not wait to hear of; on PGlite, `db`.
   */
  counters: Database;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  /** Whether the database answers, within a second. */
  ping(): Promise<boolean>;
  /**
   * Hears why a pooled idle connection to a server was lost (a restart, a failover): the pool drops
   * it and the next statement connects anew.
   */
  onConnectionError(listener: (error: Error) => void): void;
  /**
   * Calls `onNotify` with each notification's payload on `channel` (NOTIFY, sent at commit by any
   * process writing to the database), and with null when some may have been missed: a server's
   * connection dropped (listening resumes on a new one). `live()` says whether nothing can be missed now.
   * `onTrouble` hears why a server's listening connection could not be made or checked (at most every
   * few minutes): until it can, nothing is live.
   */
  listen(channel: string, onNotify: (payload: string | null) => void, onTrouble?: (error: unknown) => void): Promise<Subscription>;
  close(): Promise<void>;
  /**
   * A server's pools, the main one and the rate limits' counts' (`counters`): connections open, idle,
   * and statements waiting for one. PGlite has one connection inside the process and no pool.
   */
  poolUse?(): Record<'main' | 'rate_limits', { total: number; idle: number; waiting: number }>;
  /**
   * PGlite only: the whole database as a tarball that `openDatabase({ snapshot })` loads. `alongside`
   * runs under the same lock, so no statement commits between the dump and what it does.
   */
  dump?(alongside?: () => Promise<void>): Promise<Blob>;
}

export interface DatabaseOptions {
  url?: string;
  dataDir: string | null;
  snapshot?: Blob;
  /** A server's; none: statements wait as long as the server takes (commands, tests' setup). */
  timeouts?: DatabaseTimeouts;
  /** A server's (DATABASE_POOL_MODE); session by default. */
  poolMode?: PoolMode;
}

/**
 * Opens PostgreSQL: a server when a URL is given, otherwise PGlite stored in `dataDir`
 * (or in memory when `dataDir` is null, for tests). A PGlite `snapshot` (see `dump`) starts the
 * database from one already migrated and seeded: each API test file skips initdb and the ZIP load.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  // Each driver loads only when it is used: a start on the embedded database does not load the
  // server's client, nor a start on a server PGlite.
  const { url } = options;
  if (url) return (await import('./server.js')).openServerDatabase({ ...options, url });
  return (await import('./embedded.js')).openEmbeddedDatabase(options);
}

/** What both databases' handles share: the queries, the health check's ping, migrating and closing. */
export function handle(
  db: Database,
  kind: DatabaseHandle['kind'],
  migrate: () => Promise<void>,
  close: () => Promise<void>,
): Omit<DatabaseHandle, 'listen' | 'onConnectionError' | 'counters'> {
  return {
    db,
    kind,
    migrate,
    close,
    async ping() {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), PING_WITHIN_MS)));
      const answered = db.execute(sql`select 1`).then(() => true, () => false);
      return Promise.race([answered, late]).finally(() => clearTimeout(timer));
    },
  };
}

/** A transaction, which offers the same queries as the database. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The rows of a statement written in SQL: both drivers answer them under `rows`. */
export async function queryRows<Row>(db: Database | Transaction, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}
