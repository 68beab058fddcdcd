import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type DatabaseHandle } from '../../db/client.js';
import { isMissingTable } from '../../db/errors.js';
import { migrationsFolder } from '../../paths.js';

/** How long the migrations' look may take once the database answered its ping. */
const LOOK_WITHIN_MS = 1000;

/** What /readyz says of each check, so a load balancer's log shows which one failed. */
export const readinessSchema = z.object({
  ready: z.boolean(),
  database: z.enum(['ok', 'unreachable']),
  /** Unchecked while the database does not answer. */
  migrations: z.enum(['ok', 'pending', 'unchecked']),
  listener: z.enum(['ok', 'down']),
});
export type Readiness = z.infer<typeof readinessSchema>;

/** The `when` of each migration in the journal this build ships (drizzle records it as the row's created_at). */
function shippedMigrations(folder: string): number[] {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return journal.entries.map((entry) => entry.when);
}

function within<T>(ms: number, answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/**
 * Whether this instance can serve: the database answers a trivial query, it holds every migration
 * of this build's journal (a deploy whose migrations have not run, or a database restored from an
 * older backup, is not ready), and the changes to public answers are heard (the LISTEN connection
 * to a server is live; on PGlite, one connection inside the process, it is live while the database
 * is open).
 */
export function createReadiness(deps: { database: Pick<DatabaseHandle, 'db' | 'ping'>; listening: () => boolean }) {
  const shipped = shippedMigrations(migrationsFolder);

  async function migrations(): Promise<Readiness['migrations']> {
    try {
      const rows = await within(
        LOOK_WITHIN_MS,
        queryRows<{ created_at: string | number }>(deps.database.db, sql`select created_at from drizzle.__drizzle_migrations`),
      );
      const applied = new Set(rows.map((row) => Number(row.created_at)));
      return shipped.every((when) => applied.has(when)) ? 'ok' : 'pending';
    } catch (error) {
      // No migrations table: a database never migrated. Anything else: it stopped answering since the ping.
      return isMissingTable(error) ? 'pending' : 'unchecked';
    }
  }

  return async function check(): Promise<Readiness> {
    const listener = deps.listening() ? 'ok' : 'down';
    const database = (await deps.database.ping()) ? 'ok' : 'unreachable';
    const applied = database === 'ok' ? await migrations() : 'unchecked';
    return { ready: database === 'ok' && applied === 'ok' && listener === 'ok', database, migrations: applied, listener };
  };
}
