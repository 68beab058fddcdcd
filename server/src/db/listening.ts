import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Subscription } from './client.js';
import { isTimeout } from './errors.js';
import type { TransactionPool } from './transactionPool.js';

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
/**
 * LISTEN on a connection of its own (a pooled one would hand it back). When it drops, stops answering
 * or cannot be made, listeners hear null at once and a new connection listens again a second later;
 * until then nothing is `live`. It goes live only once a notification sent through the pool came back
 * on it: a pooler that does not pass notifications on (PgBouncer in transaction mode) never goes live,
 * so nothing is remembered rather than remembered stale. A connection that stops answering (a
 * frozen server) leaves what was remembered to be served while the database does not answer.
 */
export async function listenOnServer(
  url: string,
  pool: TransactionPool,
  channel: string,
  onNotify: (payload: string | null) => void,
  onTrouble: (error: unknown) => void = () => {},
): Promise<Subscription> {
  let client: pg.Client | null = null;
  let live = false;
  let unanswered = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  // How many of the writes this process ran (`pool.writesReleased`) a round trip on the listening
  // connection has followed: the server sends a listener the notifications committed before it
  // answers a query, so by then those writes' have been heard.
  let heard = pool.writesReleased;
  let roundTrip: Promise<void> | null = null;
  let echo: { nonce: string; heard: () => void } | null = null;
  // A connection that keeps failing (a pooler that drops notifications) is retried every second, but told of rarely.
  let toldAt = -Infinity;

  /** One round trip on the listening connection, shared by every caller while it runs; a failure loses the connection. */
  function followUp(connection: pg.Client): Promise<void> {
    if (!roundTrip) {
      const covers = pool.writesReleased;
      roundTrip = connection
        .query('select 1')
        .then(
          () => {
            heard = Math.max(heard, covers);
          },
          (error: unknown) => {
            lost(connection, error);
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

  const lost = (connection: pg.Client, error?: unknown) => {
    if (client !== connection) return;
    client = null;
    // Gone without an answer, from live or from frozen: frozen. Ended, refused or not listening: what was read may be stale.
    unanswered = (live || unanswered) && isTimeout(error);
    live = false;
    void connection.end().catch(() => {});
    if (!unanswered) onNotify(null);
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
    // While connecting, a failure is the attempt's (below).
    let connected = false;
    connection.on('error', (error) => connected && lost(connection, error));
    connection.on('end', () => connected && lost(connection));
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
      lost(connection, error);
      return;
    } finally {
      echo = null;
      clearTimeout(echoTimer);
    }
    connected = true;
    // What was read while nobody listened may have changed since.
    onNotify(null);
    unanswered = false;
    live = !closed && client === connection;
  }

  await connect();
  const heartbeat = setInterval(() => {
    if (client && live) followUp(client).catch(() => {});
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    live: () => live,
    unanswered: () => unanswered,
    caughtUp: () => (heard < pool.writesReleased && live ? catchUp(pool.writesReleased) : undefined),
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

