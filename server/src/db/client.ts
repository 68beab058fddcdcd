import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { sql } from 'drizzle-orm';
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
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // Distances between ZIP codes need these two contrib extensions; the migrations create them.
  const client = await PGlite.create(options.dataDir ?? undefined, {
    extensions: { cube, earthdistance },
    loadDataDir: options.snapshot,
  });
  const db = drizzlePglite({ client, schema });
  return {
    ...handle(db as unknown as Database, 'pglite', () => migratePglite(db, { migrationsFolder }), () => client.close()),
    dump: () => client.dumpDataDir('none'),
  };
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
