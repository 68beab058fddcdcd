import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { queryRows, type Database, type DatabaseHandle, type Transaction } from './client.js';

/**
 * Three letters or digits in a row: a trigram worth looking up. A shorter word gives pg_trgm only
 * trigrams padded with spaces, which most of a trigram index holds.
 */
export const hasTrigram = /[\p{L}\p{N}]{3}/u;

/** The database a search reads, and which kind it is (see readThroughTrigrams). */
export interface SearchedDatabase {
  db: Database;
  kind: DatabaseHandle['kind'];
}

/**
 * Runs `read`; on the embedded database, with sequential scans off when a trigram index looks the
 * searched text up (`byTrigrams`). The planner costs a trigram index scan above reading a table of
 * thousands of rows through, and on PGlite, which reads each page its 32MB cache does not hold from
 * the data folder, the index found the few matches in a fraction of the time (the
 * figures at each search). On a server the planner's choice was the faster and is left alone. The
 * setting holds for this transaction only; the statements are unnamed, so no plan made under it is kept.
 */
export function readThroughTrigrams<T>(
  { db, kind }: SearchedDatabase,
  byTrigrams: boolean,
  read: (reader: Database | Transaction) => Promise<T>,
): Promise<T> {
  if (kind !== 'pglite' || !byTrigrams) return read(db);
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    return read(tx);
  });
}

/**
 * Gathers the table's statistics when a server's autovacuum would have: once more than 50 rows and a
 * tenth of the table changed since it last did, as far as the counts handed on show (a process hands
 * them on at most once a second). PGlite runs no autovacuum, and without statistics the planner
 * guesses a handful of rows match any pattern.
 */
export async function analyzeWhenChanged(reader: Database | Transaction, table: PgTable): Promise<void> {
  const name = getTableName(table);
  const [changed] = await queryRows<{ changed: boolean }>(
    reader,
    sql`select n_mod_since_analyze > 50 + 0.1 * n_live_tup as changed from pg_stat_user_tables where relid = ${name}::regclass`,
  );
  if (changed?.changed) await reader.execute(sql`analyze ${table}`);
}
