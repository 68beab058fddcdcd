import { createHmac } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import { lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client.js';
import { isDatabaseUnavailable } from './db/errors.js';
import { rateLimitCounters } from './db/schema.js';
import { loggable } from './errors.js';

/**
 * How long a hit waits for the database before it is counted in this process: a remembered public
 * answer is served while the server does not answer (as the health check, within a second).
 */
const ANSWER_WITHIN_MS = 1000;
/** After the database failed a hit, this long of hits are counted in this process before it is asked again. */
const OUTAGE_MS = 5000;

type Incr = FastifyRateLimitStore['incr'];
type Counted = Parameters<Parameters<Incr>[1]>[1] & {};

/** What the plugin hands `child`: the route's merged options, with the route (none for `createRateLimit`). */
interface RouteLimitOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * Counts one hit under a key in its fixed window (a new one when the last is over) and answers the
 * count and the milliseconds left: one statement, one round trip.
 */
function preparedHit(db: Database) {
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  const over = sql`${rateLimitCounters.expiresAt} <= ${now}`;
  return db
    .insert(rateLimitCounters)
    .values({ key: sql.placeholder('key'), count: 1, expiresAt: sql`${now} + ${sql.placeholder('windowMs')}::float8 * interval '1 millisecond'` })
    .onConflictDoUpdate({
      target: rateLimitCounters.key,
      set: {
        count: sql`case when ${over} then 1 else ${rateLimitCounters.count} + 1 end`,
        expiresAt: sql`case when ${over} then excluded.expires_at else ${rateLimitCounters.expiresAt} end`,
      },
    })
    .returning({ current: rateLimitCounters.count, ttl: sql<number>`(extract(epoch from ${rateLimitCounters.expiresAt} - ${now}) * 1000)::float8` })
    // Built once and prepared on the server under its name (see `openDatabase`).
    .prepare('rate_limit_hit');
}

/**
 * @fastify/rate-limit's store on a PostgreSQL server: every instance counts in `rate_limit_counters`,
 * so a limit holds across all of them, with the plugin's fixed windows (LocalStore's: a window starts
 * with the first hit and the count starts again when it is over). Each route counts apart, as in the
 * plugin's own stores; keys are hashed with the secret so the table holds no address or e-mail.
 * While the database is out of reach a hit is counted in this process, so the limit still holds per
 * instance and a route that needs no database (a remembered lookup) still answers.
 */
export function countedInDatabase(deps: { db: Database; secret: string; log: Pick<FastifyBaseLogger, 'warn'>; now?: () => number }): FastifyRateLimitStoreCtor {
  const now = deps.now ?? Date.now;
  const hit = preparedHit(deps.db);
  let outageUntil = 0;

  /** Counted in the database, or why not: it is out of reach, or did not answer in time. */
  async function counted(key: string, at: number, windowMs: number): Promise<Counted | { unreachable: object }> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<{ unreachable: object }>(
      (resolve) => (timer = setTimeout(resolve, ANSWER_WITHIN_MS, { unreachable: { message: `no answer within ${ANSWER_WITHIN_MS} ms` } })),
    );
    try {
      const counting = hit.execute({ key, now: new Date(at).toISOString(), windowMs }).then(([row]) => row!);
      return await Promise.race([counting, late]);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      return { unreachable: loggable(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  return class DatabaseStore implements FastifyRateLimitStore {
    private readonly inProcess: FastifyRateLimitStore;
    private readonly scope: string;

    constructor(options: RouteLimitOptions) {
      // The windows above are fixed: a limit asking for another kind would silently get these.
      if (options.continueExceeding || options.exponentialBackoff) throw new Error('rate limits on the database count fixed windows only');
      this.inProcess = new LocalStore(false, false);
      this.scope = options.routeInfo?.url ? `${String(options.routeInfo.method)} ${options.routeInfo.url}` : '';
    }

    incr(key: string, callback: Parameters<Incr>[1], timeWindow: number, max: number): void {
      const at = now();
      if (at < outageUntil) return this.inProcess.incr(key, callback, timeWindow, max);
      const hashed = createHmac('sha256', deps.secret).update(`rate-limit\n${this.scope}\n${key}`).digest('base64url');
      counted(hashed, at, timeWindow).then(
        (result) => {
          if (!('unreachable' in result)) return callback(null, result);
          if (now() >= outageUntil) deps.log.warn({ err: result.unreachable }, 'the database is out of reach: rate limits are counted in this process for now');
          outageUntil = now() + OUTAGE_MS;
          this.inProcess.incr(key, callback, timeWindow, max);
        },
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      return new DatabaseStore(routeOptions as RouteLimitOptions);
    }
  };
}

/** Drops the counters whose window is over (a key hit again starts a new window in its row anyway). */
export async function sweepRateLimitCounters(db: Database, now = new Date()): Promise<void> {
  await db.delete(rateLimitCounters).where(lt(rateLimitCounters.expiresAt, now));
}
