import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { migrationsFolder } from '../paths.js';
import { lockDataDir } from './dataDirLock.js';
import { listenOnServer } from './listening.js';
import { TransactionPool, UnnamedStatementsClient, type PoolMode } from './transactionPool.js';
import * as schema from './schema.js';

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
   */
  caughtUp(): Promise<void> | undefined;
  close(): Promise<void>;
}

/** How long the health check waits for the database. */
const PING_WITHIN_MS = 1000;
/** How long past the server's statement timeout the client waits for an answer before giving the statement up (a frozen connection). */
const CLIENT_GRACE_MS = 1000;

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
  /** A server's pool: connections open, idle, and statements waiting for one. PGlite has one connection inside the process and no pool. */
  poolUse?(): { total: number; idle: number; waiting: number };
  /**
   * PGlite only: the whole database as a tarball that `openDatabase({ snapshot })` loads. `alongside`
   * runs under the same lock, so no statement commits between the dump and what it does.
   */
  dump?(alongside?: () => Promise<void>): Promise<Blob>;
}

/**
 * Opens PostgreSQL: a server when a URL is given, otherwise PGlite stored in `dataDir`
 * (or in memory when `dataDir` is null, for tests). A PGlite `snapshot` (see `dump`) starts the
 * database from one already migrated and seeded: each API test file skips initdb and the ZIP load.
 */
export async function openDatabase(options: {
  url?: string;
  dataDir: string | null;
  snapshot?: Blob;
  /** A server's; none: statements wait as long as the server takes (commands, tests' setup). */
  timeouts?: DatabaseTimeouts;
  /** A server's (DATABASE_POOL_MODE); session by default. */
  poolMode?: PoolMode;
}): Promise<DatabaseHandle> {
  if (options.url) {
    const url = options.url;
    const limits = options.timeouts;
    const poolOf = (max: number) => {
      const pool = new TransactionPool({
        connectionString: url,
        max,
        keepAlive: true,
        // The hot statements are prepared once under a name (`.prepare('…')`), which spares the server
        // their parsing and planning on each call (a pet list: 376 to 135 µs of its CPU); through a
        // pooler in transaction mode they go unnamed.
        ...(options.poolMode === 'transaction' && { Client: UnnamedStatementsClient }),
        ...(limits && {
          connectionTimeoutMillis: limits.connectMs,
          // A frozen connection sends no answer, not even the server's cancel: the client gives up too.
          query_timeout: limits.statementMs + CLIENT_GRACE_MS,
          // Set on each new connection before the pool hands it out (a pooler, PgBouncer, refuses it as a
          // startup parameter); a connection that cannot take it is ended and the statement waiting fails.
          onConnect: async (client: pg.ClientBase) => {
            await client.query(`set statement_timeout = ${limits.statementMs}`);
          },
        }),
      });
      // Without a listener, an idle connection the server ends would end the process ('error' event).
      pool.on('error', (error) => connectionErrors.forEach((listener) => listener(error)));
      // Nor may one the server ends while a transaction holds it between two statements (a restart
      // under load): the pool hears only idle ones. The transaction's next statement fails (503), and
      // the pool drops the connection when it comes back.
      pool.on('connect', (client) => client.on('error', () => {}));
      return pool;
    };
    const connectionErrors = new Set<(error: Error) => void>();
    const pool = poolOf(10);
    // The rate limits' counting, on connections of its own: the public answers wait to hear of every
    // statement the main pool ran (`listen`), and a count changes nothing they keep.
    const countersPool = poolOf(2);
    const db = drizzlePg({ client: pool, schema });
    const subscriptions = new Set<Subscription>();
    const close = async () => {
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      await Promise.all([pool.end(), countersPool.end()]);
    };
    // On a connection of its own, with no statement timeout: building an index on a large table takes longer.
    const migrate = async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: limits?.connectMs });
      await client.connect();
      try {
        await migratePg(drizzlePg({ client }), { migrationsFolder });
      } finally {
        await client.end();
      }
    };
    return {
      ...handle(db as unknown as Database, 'postgres', migrate, close),
      counters: drizzlePg({ client: countersPool, schema }) as unknown as Database,
      onConnectionError: (listener) => void connectionErrors.add(listener),
      poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      async listen(channel, onNotify, onTrouble) {
        const subscription = await listenOnServer(url, pool, channel, onNotify, onTrouble);
        subscriptions.add(subscription);
        return subscription;
      },
    };
  }
  const releaseDataDir = options.dataDir ? await lockDataDir(options.dataDir) : async () => {};
  try {
    // Distances (cube, earthdistance) and name similarity (pg_trgm) are contrib extensions; the migrations create them.
    const client = await PGlite.create(options.dataDir ?? undefined, {
      extensions: { cube, earthdistance, pg_trgm },
      loadDataDir: options.snapshot,
    });
    takeTurnsWithRequests(client);
    const db = drizzlePglite({ client, schema });
    const close = async () => {
      await client.close();
      await releaseDataDir();
    };
    return {
      ...handle(db as unknown as Database, 'pglite', () => migratePglite(db, { migrationsFolder }), close),
      counters: db as unknown as Database,
      // One connection inside the process: nothing to lose.
      onConnectionError: () => {},
      // One process owns the database, so a notification is delivered with the result of the commit that sent it.
      async listen(channel, onNotify) {
        const unlisten = await client.listen(channel, onNotify);
        return {
          live: () => !client.closed,
          unanswered: () => false,
          caughtUp: () => undefined,
          close: () => (client.closed ? Promise.resolve() : unlisten()),
        };
      },
      // dumpDataDir's own steps (the data folder is read with no statement running), with room for `alongside`.
      dump: (alongside) =>
        client.runExclusive(async () => {
          const tarball = await client.fs!.dumpTar('pgdata', 'none');
          await alongside?.();
          return tarball;
        }),
    };
  } catch (error) {
    await releaseDataDir();
    throw error;
  }
}

/** How long the embedded database may run statements one after another before the process reads the requests that came in. */
const REQUESTS_READ_EVERY_MS = 4;

/**
 * PGlite runs each statement on the portal's own thread, and hands its lock from one waiting statement
 * to the next without a pause: while writes queue, the requests already in (a kept public answer, the
 * health check) waited for the whole queue to drain, seconds under load. Statements and transactions
 * now take turns, one after the other, and every few milliseconds the process reads the requests that
 * came in before the next one runs.
 */
function takeTurnsWithRequests(client: PGlite): void {
  let previous: Promise<unknown> = Promise.resolve();
  let readAt = performance.now();
  const readRequests = async () => {
    if (performance.now() - readAt < REQUESTS_READ_EVERY_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    readAt = performance.now();
  };
  const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
    const turn = previous.then(readRequests).then(run);
    previous = turn.catch(() => {});
    return turn;
  };
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((...args: Parameters<typeof query>) => inTurn(() => query(...args))) as typeof client.query;
  client.transaction = ((callback: Parameters<typeof transaction>[0]) => inTurn(() => transaction(callback))) as typeof client.transaction;
}

function handle(
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
