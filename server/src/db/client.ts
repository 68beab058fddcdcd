import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import lockfile from 'proper-lockfile';
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
import * as schema from './schema.js';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
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
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    const db = drizzlePg({ client: pool, schema });
    return handle(db as unknown as Database, 'postgres', () => migratePg(db, { migrationsFolder }), () => pool.end());
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
      dump: () => client.dumpDataDir('none'),
    };
  } catch (error) {
    await releaseDataDir();
    throw error;
  }
}

export class DatabaseInUseError extends Error {}

/**
 * PGlite is one process's database: a second process on the same folder (a second `npm start`, or
 * an operator's command beside the running portal) would corrupt it. A lock next to the folder,
 * refreshed while the process lives and taken over once stale after a crash, keeps it to one.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  mkdirSync(dataDir, { recursive: true });
  try {
    return await lockfile.lock(dataDir, {
      // A portal that crashed frees its folder ten seconds later, so a restart soon gets it back.
      stale: 10_000,
      update: 3_000,
      realpath: false,
      // A lock that could not be refreshed in time (a stalled event loop) is reported, not fatal:
      // stopping the portal mid-request would do more harm.
      onCompromised: (error) => console.error(`The lock on the embedded database in ${dataDir} was lost: ${error.message}`),
    });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ELOCKED') throw error;
    throw new DatabaseInUseError(
      `The embedded database in ${dataDir} is in use by another process (is the portal running?). Stop it first, or use DATABASE_URL.`,
    );
  }
}

function handle(
  db: Database,
  kind: DatabaseHandle['kind'],
  migrate: () => Promise<void>,
  close: () => Promise<void>,
): DatabaseHandle {
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
