import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { queryRows, type Database, type DatabaseHandle, type Transaction } from './client.js';

/**
 * Three letters or digits in a row: a trigram worth looking up. A shorter word gives pg_trgm only
 * trigrams padded with spaces, which most of a trigram index holds.
 */
export const hasTrigram = /[\p{L}\p{N}]{3}/u;

/** The database a search reads, and which kind it is (see readByTrigramIndexes). */
export interface SearchedDatabase {
  db: Database;
  kind: DatabaseHandle['kind'];
}

/**
 * Runs `read`; on the embedded database, with sequential scans off when a trigram index looks the
 * searched text up (`byTrigrams`). The planner costs a trigram index scan above reading a table of
 * thousands of rows in full, and on PGlite, which reads each page its 32MB cache does not hold from
 * the data folder, the index found the few matches in a fraction of the time (the figures at each
 * search). The setting only rules out reading the table itself: in a table of some thousands of rows
 * the planner may still read a b-tree index of it in full, which costs about the same; in tens of
 * thousands it takes the trigram index. A server is left to its planner: for the admin search its
 * choice measured the faster (the figures at readUserSearch); the mail log there was not measured
 * with the setting, only found as fast as before without it. The setting holds for this transaction
 * only; the statements are unnamed, so no plan made under it is kept.
 */
export function readByTrigramIndexes<T>(
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
 * On the embedded database, does what a server's autovacuum would for the table: gathers its
 * statistics once more than 50 plus a tenth of its rows changed since it last did, and moves what its
 * GIN indexes' fast updates queued into the indexes themselves. PGlite runs no autovacuum, and without
 * statistics the planner guesses a handful of rows match any pattern. Its counts of changes start at
 * zero again at each start (and are handed on at most once a second), so a table with rows and no
 * statistics (filled by a migration, say, before a restart) is due too. A server is left to its autovacuum.
 */
export async function gatherStatisticsWhenDue({ db, kind }: SearchedDatabase, table: PgTable): Promise<void> {
  if (kind !== 'pglite') return;
  const name = getTableName(table);
  const [due] = await queryRows<{ due: boolean }>(
    db,
    sql`select coalesce(s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0), false)
        or (pg_relation_size(c.oid) > 0 and not exists (select from pg_statistic where starelid = c.oid)) as due
      from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
      where c.oid = ${name}::regclass`,
  );
  if (!due?.due) return;
  await db.execute(sql`analyze ${table}`);
  // A plain ANALYZE leaves the pending lists alone; autovacuum's empties them.
  await db.execute(sql`select gin_clean_pending_list(i.indexrelid) from pg_index i
    join pg_class ix on ix.oid = i.indexrelid join pg_am am on am.oid = ix.relam
    where i.indrelid = ${name}::regclass and am.amname = 'gin'`);
}
