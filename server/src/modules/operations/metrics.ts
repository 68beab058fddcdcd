import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { queryRows, type DatabaseHandle } from '../../db/client.js';
import { alertEmails, mailOutbox, textOutbox } from '../../db/schema.js';
import { loggable } from '../../errors.js';
import { uncounted, type SendTally } from '../../worker/outbox.js';
import { unmetered, type CacheMeter } from '../public/caches.js';

/** The outboxes as /metrics names them: e-mails (the mail outbox and the alert e-mails) and texts. */
export type OutboxKind = 'email' | 'sms';

/** What the portal's parts report for /metrics. With /metrics off, nothing is kept and each report costs a call that does nothing. */
export interface Metrics {
  /** The results of the worker's tries on one outbox. */
  sends(kind: OutboxKind): SendTally;
  /** How many professionals an alert goes to. */
  alertFanOut(recipients: number): void;
  /** Reads and drops of the public answers kept in memory. */
  cache: CacheMeter;
  /** Counts and times every answer by route pattern and status. */
  timeRequests(app: FastifyInstance): void;
  /** The Prometheus text, with what is read at scrape time (the outboxes) read now; null when /metrics is off. */
  scrape: (() => Promise<{ contentType: string; text: string }>) | null;
}

export const noMetrics: Metrics = {
  sends: () => uncounted,
  alertFanOut: () => {},
  cache: unmetered,
  timeRequests: () => {},
  scrape: null,
};

/** Seconds; a cached public answer takes a millisecond or two, a sign-in about 10 ms of argon2id, a bulk upload seconds. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Professionals an alert reaches: none in an empty area, thousands within 50 miles of a city centre. */
const FAN_OUT_BUCKETS = [0, 1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000];
/** The route label of an answer no route matched (an unknown path, a screen of the web app): one label, never the path. */
const NO_ROUTE = 'unmatched';

/**
 * The portal's metrics in a registry of this app's own (tests build many apps in one process), with
 * Node's process metrics. Labels are route patterns, statuses, outbox kinds and cache names, never a
 * value from a request: no chip number, token or address becomes a label.
 */
export async function createMetrics(database: DatabaseHandle, log: FastifyBaseLogger): Promise<Metrics> {
  // Loaded only where metrics are asked for (METRICS_TOKEN): not at every start.
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = await import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Counter({
    name: 'petreg_http_requests_total',
    help: 'Answers sent, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'],
    registers,
  });
  const latency = new Histogram({
    name: 'petreg_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const sendResults = new Counter({
    name: 'petreg_outbox_send_results_total',
    help: 'Tries of the worker to send an e-mail or a text, by outbox and result: sent, failed (for good), retried (later, an attempt used), waiting (provider out of reach, no attempt used)',
    labelNames: ['kind', 'result'],
    registers,
  });
  const fanOut = new Histogram({
    name: 'petreg_alert_fanout_recipients',
    help: "Professionals each lost pet alert goes to, counted as its e-mails are written in the paying transaction",
    buckets: FAN_OUT_BUCKETS,
    registers,
  });
  const cacheReads = new Counter({
    name: 'petreg_public_cache_reads_total',
    help: 'Reads of the public answers kept in memory (lookups, profiles, short links, finder pages), by result: hit or miss',
    labelNames: ['cache', 'result'],
    registers,
  });
  const cacheDrops = new Counter({
    name: 'petreg_public_cache_drops_total',
    help: 'Public answers dropped from memory because a write changed them or a change may have been missed',
    labelNames: ['cache'],
    registers,
  });
  const outboxDepth = new Gauge({
    name: 'petreg_outbox_depth',
    help: 'E-mails or texts waiting to be sent or being sent, read at scrape time',
    labelNames: ['kind'],
    registers,
  });
  const outboxAge = new Gauge({
    name: 'petreg_outbox_oldest_age_seconds',
    help: 'Age of the oldest e-mail or text waiting or being sent (0 when none), read at scrape time',
    labelNames: ['kind'],
    registers,
  });
  const poolUse = database.poolUse;
  if (poolUse) {
    new Gauge({
      name: 'petreg_db_pool_connections',
      help: "The PostgreSQL pools' connections, by pool (main, or the rate limits' counts) and state: total (open) or idle",
      labelNames: ['pool', 'state'],
      registers,
      collect() {
        for (const [pool, use] of Object.entries(poolUse())) {
          this.set({ pool, state: 'total' }, use.total);
          this.set({ pool, state: 'idle' }, use.idle);
        }
      },
    });
    new Gauge({
      name: 'petreg_db_pool_waiting',
      help: 'Statements waiting for a connection of a PostgreSQL pool, by pool (main, or the rate limits\' counts)',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const [pool, use] of Object.entries(poolUse())) this.set({ pool }, use.waiting);
      },
    });
  }

  /** The outboxes' depth and oldest row, in one statement; while the database does not answer, the gauges have no value. */
  async function readOutboxes() {
    const waiting = (table: typeof mailOutbox | typeof alertEmails | typeof textOutbox) =>
      sql`select ${table.createdAt} as created_at from ${table} where ${table.status} in ('pending', 'sending')`;
    const age = sql`coalesce(extract(epoch from now() - min(created_at)), 0)::float8`;
    try {
      const rows = await queryRows<{ kind: OutboxKind; depth: number; age: number }>(
        database.db,
        sql`select 'email' as kind, count(*)::integer as depth, ${age} as age from (${waiting(mailOutbox)} union all ${waiting(alertEmails)}) email
            union all
            select 'sms', count(*)::integer, ${age} from (${waiting(textOutbox)}) sms`,
      );
      for (const row of rows) {
        outboxDepth.set({ kind: row.kind }, Number(row.depth));
        outboxAge.set({ kind: row.kind }, Number(row.age));
      }
    } catch (error) {
      outboxDepth.reset();
      outboxAge.reset();
      log.warn({ err: loggable(error) }, 'metrics: the outboxes cannot be read; their gauges are left out of this scrape');
    }
  }

  return {
    sends: (kind) => (result) => sendResults.inc({ kind, result }),
    alertFanOut: (recipients) => fanOut.observe(recipients),
    cache: {
      read: (cache, hit) => cacheReads.inc({ cache, result: hit ? 'hit' : 'miss' }),
      dropped: (cache, count) => cacheDrops.inc({ cache }, count),
    },
    // The count and the time together: 0.83 to 0.86 µs an answer measured here at a load average of 2.5 (2.6 to 3.3 µs at 21).
    timeRequests(app) {
      app.addHook('onResponse', (request, reply, done) => {
        const labels = { method: request.method, route: request.routeOptions.url ?? NO_ROUTE, status: reply.statusCode };
        requests.inc(labels);
        latency.observe(labels, reply.elapsedTime / 1000);
        done();
      });
    },
    async scrape() {
      await readOutboxes();
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}
