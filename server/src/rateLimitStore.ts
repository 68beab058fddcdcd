import { createHmac, createSecretKey } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import { inArray, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client.js';
import { isDatabaseUnavailable } from './db/errors.js';
import { rateLimitCounters } from './db/schema.js';
import { loggable } from './errors.js';

/**
 * How long a statement of counts waits for the database before its hits are counted in this process:
 * a remembered public answer is served while the server does not answer (as the health check, within a second).
 */
const ANSWER_WITHIN_MS = 1000;
/** After the database did not answer a statement of counts, this long of hits are counted in this process before it is asked again. */
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
 * Counts the hits of a batch, `counts[i]` of them under `keys[i]` in its fixed window (a new one when
 * the last is over), and answers each key's count and the milliseconds left: one statement, one round
 * trip for all. The rows are taken in key order, so two instances' batches never wait on each other
 * in a cycle (a deadlock the server would answer with an error).
 */
function preparedHits(db: Database) {
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  const over = sql`${rateLimitCounters.expiresAt} <= ${now}`;
  return db
    .insert(rateLimitCounters)
    .select(
      sql`select key, hits, ${now} + window_ms * interval '1 millisecond'
        from unnest(${sql.placeholder('keys')}::text[], ${sql.placeholder('counts')}::int[], ${sql.placeholder('windowsMs')}::float8[]) as hit(key, hits, window_ms)
        order by key`,
    )
    .onConflictDoUpdate({
      target: rateLimitCounters.key,
      set: {
        count: sql`case when ${over} then excluded.count else ${rateLimitCounters.count} + excluded.count end`,
        expiresAt: sql`case when ${over} then excluded.expires_at else ${rateLimitCounters.expiresAt} end`,
      },
    })
    .returning({ key: rateLimitCounters.key, current: rateLimitCounters.count, ttl: sql<number>`(extract(epoch from ${rateLimitCounters.expiresAt} - ${now}) * 1000)::float8` })
    // Built once and prepared on the server under its name (see `openServerDatabase`).
    .prepare('rate_limit_hits');
}

type Callback = Parameters<Incr>[1];

/** The hits under one key waiting for the next statement, in the order they came, and the route's store in this process should the database not answer. */
interface Waiting {
  key: string;
  windowMs: number;
  max: number;
  callbacks: Callback[];
  inProcess: FastifyRateLimitStore;
}

/**
 * @fastify/rate-limit's store on a PostgreSQL server: every instance counts in `rate_limit_counters`,
 * so a limit holds across all of them, with the plugin's fixed windows (LocalStore's: a window starts
 * with the first hit and the count starts again when it is over). Each route counts apart, as in the
 * plugin's own stores; keys are hashed with the secret so the table holds no address or e-mail.
 * The hits that come in while a statement is out go together in the next one: a statement a hit, at a
 * new address each time, held the lookup to what the server could write one row at a time.
 * While the database is out of reach a hit is counted in this process, so the limit still holds per
 * instance and a route that needs no database (a remembered lookup) still answers.
 */
export function countedInDatabase(deps: { db: Database; secret: string; log: Pick<FastifyBaseLogger, 'warn'>; now?: () => number }): FastifyRateLimitStoreCtor {
  const now = deps.now ?? Date.now;
  // Made once: a key given as a string is made anew for each hit's hash (a third of its cost).
  const hashKey = createSecretKey(Buffer.from(deps.secret));
  const statement = preparedHits(deps.db);
  let outageUntil = 0;
  let waiting = new Map<string, Waiting>();
  let sending = false;

  /** Counted in the database, or why not: it is out of reach or did not answer in time, or the statement failed. */
  async function counted(batch: Map<string, Waiting>, at: number): Promise<Map<string, Counted> | { unreachable: object } | { failed: object }> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<{ unreachable: object }>(
      (resolve) => (timer = setTimeout(resolve, ANSWER_WITHIN_MS, { unreachable: { message: `no answer within ${ANSWER_WITHIN_MS} ms` } })),
    );
    const hits = [...batch.values()];
    try {
      const counting = statement
        .execute({ keys: [...batch.keys()], counts: hits.map((hit) => hit.callbacks.length), windowsMs: hits.map((hit) => hit.windowMs), now: new Date(at).toISOString() })
        .then((rows) => new Map(rows.map(({ key, current, ttl }) => [key, { current, ttl }])));
      return await Promise.race([counting, late]);
    } catch (error) {
      return isDatabaseUnavailable(error) ? { unreachable: loggable(error) } : { failed: loggable(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Counts hits in this process, each in its route's store: the database did not count them. */
  function countHere(hits: Iterable<Waiting>) {
    for (const hit of hits) for (const callback of hit.callbacks) hit.inProcess.incr(hit.key, callback, hit.windowMs, hit.max);
  }

  /** Each hit's count: its key's hits in this statement, in the order they came, the last of them holding the row's count. */
  function answer(batch: Map<string, Waiting>, counts: Map<string, Counted>) {
    for (const [hashed, hit] of batch) {
      const count = counts.get(hashed);
      if (!count) countHere([hit]);
      else hit.callbacks.forEach((callback, i) => callback(null, { current: count.current - hit.callbacks.length + 1 + i, ttl: count.ttl }));
    }
  }

  /**
   * Sends the hits waiting, unless a statement is out: they go when it is back. A statement that fails
   * has its hits counted here rather than refused: one failure would otherwise answer every request
   * of the statement with an error.
   */
  function send() {
    if (sending || waiting.size === 0) return;
    const batch = waiting;
    waiting = new Map();
    // Hits that waited behind a statement the server did not answer are counted here, as those coming now.
    if (now() < outageUntil) return countHere(batch.values());
    sending = true;
    void counted(batch, now())
      .then((result) => {
        if (result instanceof Map) return answer(batch, result);
        if ('unreachable' in result) {
          if (now() >= outageUntil) deps.log.warn({ err: result.unreachable }, 'the database is out of reach: rate limits are counted in this process for now');
          outageUntil = now() + OUTAGE_MS;
        } else {
          deps.log.warn({ err: result.failed }, 'the database could not count rate limits: these hits are counted in this process');
        }
        countHere(batch.values());
      })
      .catch((error: unknown) => deps.log.warn({ err: loggable(error) }, 'rate limit counts could not be answered'))
      .finally(() => {
        sending = false;
        send();
      });
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

    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      if (now() < outageUntil) return this.inProcess.incr(key, callback, timeWindow, max);
      const hashed = createHmac('sha256', hashKey).update(`rate-limit\n${this.scope}\n${key}`).digest('base64url');
      const hit = waiting.get(hashed);
      if (hit) hit.callbacks.push(callback);
      else waiting.set(hashed, { key, windowMs: timeWindow, max, callbacks: [callback], inProcess: this.inProcess });
      // The hits of the requests read in this turn of the event loop go together.
      if (waiting.size === 1 && !hit) setImmediate(send);
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      return new DatabaseStore(routeOptions as RouteLimitOptions);
    }
  };
}

/**
 * Drops the counters whose window is over (a key hit again starts a new window in its row anyway).
 * Rows a statement of counts holds are left to the next sweep: waiting for them, taken in another
 * order than the counts take theirs, could deadlock with it.
 */
export async function sweepRateLimitCounters(db: Database, now = new Date()): Promise<void> {
  const over = db.select({ key: rateLimitCounters.key }).from(rateLimitCounters).where(lt(rateLimitCounters.expiresAt, now)).for('update', { skipLocked: true });
  await db.delete(rateLimitCounters).where(inArray(rateLimitCounters.key, over));
}
