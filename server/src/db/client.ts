import { randomUUID } from 'node:crypto';
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
import * as schema from './schema.js';

export { DatabaseInUseError } from './dataDirLock.js';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Subscription {
  live(): boolean;
  /**
   * Resolves once every notification of a write this process made so far has been heard (nothing to
   * wait for: undefined). A server's notifications come on another connection, a moment after the commit.
   */
  caughtUp(): Promise<void> | undefined;
  close(): Promise<void>;
}

/** How long a lost listening connection to a server waits before it connects again. */
const RELISTEN_DELAY_MS = 1000;
/** How long the listening connection may take to answer before it counts as lost. */
const LISTEN_TIMEOUT_MS = 2000;
/** Starts the payload of the notification a new listening connection sends itself. */
const ECHO_PREFIX = 'listening ';
/** How often, at most, a listening connection that keeps failing is reported. */
const TROUBLE_EVERY_MS = 5 * 60_000;
/** How often an idle listening connection is asked whether it still answers. */
const HEARTBEAT_MS = 5000;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  /**
   * Calls `onNotify` with each notification's payload on `channel` (NOTIFY, sent at commit by any
   * process writing to the database), and with null when some may have been missed: a server's
   * connection dropped (listening resumes on a new one). `live()` says whether nothing can be missed now.
   * `onTrouble` hears why a server's listening connection could not be made or checked (at most every
   * few minutes): until it can, nothing is live.
   */
  listen(channel: string, onNotify: (payload: string | null) => void, onTrouble?: (error: unknown) => void): Promise<Subscription>;
  close(): Promise<void>;
  /** PGlite only: the whole database as a tarball that `openDatabase({ snapshot })` loads. */
  dump?(): Promise<Blob>;
}

/**
 * Opens PostgreSQL: a server when a URL is given, otherwise PGlite stored in `dataDir`
 * (or in memory when `dataDir` is null, for tests). A PGlite `snapshot` (see `dump`) starts the
 * database from one already migrated and seeded: each API test file skips initdb and the ZIP load.
 */
export async function openDatabase(options: { url?: string; dataDir: string | null; snapshot?: Blob }): Promise<DatabaseHandle> {
  if (options.url) {
    const url = options.url;
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    const db = drizzlePg({ client: pool, schema });
    const subscriptions = new Set<Subscription>();
    const close = async () => {
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      await pool.end();
    };
    return {
      ...handle(db as unknown as Database, 'postgres', () => migratePg(db, { migrationsFolder }), close),
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
    const db = drizzlePglite({ client, schema });
    const close = async () => {
      await client.close();
      await releaseDataDir();
    };
    return {
      ...handle(db as unknown as Database, 'pglite', () => migratePglite(db, { migrationsFolder }), close),
      // One process owns the database, so a notification is delivered with the result of the commit that sent it.
      async listen(channel, onNotify) {
        const unlisten = await client.listen(channel, onNotify);
        return { live: () => !client.closed, caughtUp: () => undefined, close: () => (client.closed ? Promise.resolve() : unlisten()) };
      },
      dump: () => client.dumpDataDir('none'),
    };
  } catch (error) {
    await releaseDataDir();
    throw error;
  }
}

/**
 * LISTEN on a connection of its own (a pooled one would hand it back). When it drops, stops answering
 * or cannot be made, listeners hear null at once and a new connection listens again a second later;
 * until then nothing is `live`. It goes live only once a notification sent through the pool came back
 * on it: a pooler that does not pass notifications on (PgBouncer in transaction mode) never goes live,
 * so nothing is remembered rather than remembered stale.
 */
async function listenOnServer(
  url: string,
  pool: pg.Pool,
  channel: string,
  onNotify: (payload: string | null) => void,
  onTrouble: (error: unknown) => void = () => {},
): Promise<Subscription> {
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  // Statements this process ran (counted as their connections go back to the pool), and how many of
  // them a round trip on the listening connection has followed: the server sends a listener the
  // notifications committed before it answers a query, so by then those statements' have been heard.
  let released = 0;
  let heard = 0;
  let roundTrip: Promise<void> | null = null;
  pool.on('release', () => released++);
  let echo: { nonce: string; heard: () => void } | null = null;
  // A connection that keeps failing (a pooler that drops notifications) is retried every second, but told of rarely.
  let toldAt = -Infinity;

  /** One round trip on the listening connection, shared by every caller while it runs; a failure loses the connection. */
  function followUp(connection: pg.Client): Promise<void> {
    if (!roundTrip) {
      const covers = released;
      roundTrip = connection
        .query('select 1')
        .then(
          () => {
            heard = Math.max(heard, covers);
          },
          (error: unknown) => {
            lost(connection);
            throw error;
          },
        )
        .finally(() => {
          roundTrip = null;
        });
    }
    return roundTrip;
  }

  // Waits for the statements run before the call, not for those other requests keep adding meanwhile.
  async function catchUp(target: number) {
    while (heard < target && client && live) {
      if (!(await followUp(client).then(() => true, () => false))) return;
    }
  }

  const lost = (connection: pg.Client) => {
    if (client !== connection) return;
    client = null;
    live = false;
    void connection.end().catch(() => {});
    onNotify(null);
    if (!closed) retry = setTimeout(() => void connect(), RELISTEN_DELAY_MS);
  };
  async function connect() {
    // A connection that stops answering (a peer gone without a word) is found by the heartbeat's
    // timeout, not by TCP minutes later.
    const connection = new pg.Client({ connectionString: url, keepAlive: true, query_timeout: LISTEN_TIMEOUT_MS, connectionTimeoutMillis: LISTEN_TIMEOUT_MS });
    client = connection;
    connection.on('notification', (message) => {
      if (message.channel !== channel) return;
      // Another instance's check, or this one's: not a write.
      if (message.payload?.startsWith(ECHO_PREFIX)) {
        if (message.payload === echo?.nonce) echo.heard();
        return;
      }
      onNotify(message.payload ?? '');
    });
    connection.on('error', () => lost(connection));
    connection.on('end', () => lost(connection));
    let echoTimer: NodeJS.Timeout | undefined;
    try {
      await connection.connect();
      await connection.query(`listen ${pg.escapeIdentifier(channel)}`);
      const nonce = `${ECHO_PREFIX}${randomUUID()}`;
      const echoed = new Promise<void>((resolve, reject) => {
        echo = { nonce, heard: resolve };
        echoTimer = setTimeout(() => reject(new Error(`no notification came back on ${channel}`)), LISTEN_TIMEOUT_MS);
      });
      // Awaited together: a pool slower than the echo's timeout must not leave its rejection unheard.
      await Promise.all([pool.query('select pg_notify($1, $2)', [channel, nonce]), echoed]);
    } catch (error) {
      if (performance.now() - toldAt > TROUBLE_EVERY_MS) {
        toldAt = performance.now();
        onTrouble(error);
      }
      lost(connection);
      return;
    } finally {
      echo = null;
      clearTimeout(echoTimer);
    }
    // What was read while nobody listened may have changed since.
    onNotify(null);
    live = !closed && client === connection;
  }

  await connect();
  const heartbeat = setInterval(() => {
    if (client && live) followUp(client).catch(() => {});
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    live: () => live,
    caughtUp: () => (heard < released && live ? catchUp(released) : undefined),
    async close() {
      closed = true;
      live = false;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const connection = client;
      client = null;
      await connection?.end();
    },
  };
}

function handle(
  db: Database,
  kind: DatabaseHandle['kind'],
  migrate: () => Promise<void>,
  close: () => Promise<void>,
): Omit<DatabaseHandle, 'listen'> {
  return {
    db,
    kind,
    migrate,
    close,
    async ping() {
      try {
        await db.execute(sql`select 1`);
        return true;
      } catch {
        return false;
      }
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
