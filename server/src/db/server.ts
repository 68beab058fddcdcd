import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrationsFolder } from '../paths.js';
import { handle, type Database, type DatabaseHandle, type DatabaseOptions, type Subscription } from './client.js';
import { listenOnServer } from './listening.js';
import { TransactionPool, UnnamedStatementsClient, WriteNotingClient } from './transactionPool.js';
import * as schema from './schema.js';

/** How long past the server's statement timeout the client waits for an answer before giving the statement up (a frozen connection). */
const CLIENT_GRACE_MS = 1000;

const useOf = (pool: pg.Pool) => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });

/** A PostgreSQL server's database, through a pool of connections (see `openDatabase`). */
export async function openServerDatabase(options: DatabaseOptions & { url: string }): Promise<DatabaseHandle> {
  const { url } = options;
  const limits = options.timeouts;
  // Both pools' lost idle connections are told to the same listeners.
  const connectionErrors = new Set<(error: Error) => void>();
  const poolOf = (max: number) => {
    const pool = new TransactionPool({
      connectionString: url,
      max,
      keepAlive: true,
      // The hot statements are prepared once under a name (`.prepare('…')`), which spares the server
      // their parsing and planning on each call (a pet list: 376 to 135 µs of its CPU); through a
      // pooler in transaction mode they go unnamed.
      Client: options.poolMode === 'transaction' ? UnnamedStatementsClient : WriteNotingClient,
      ...(limits && {
        connectionTimeoutMillis: limits.connectMs,
        // A frozen connection sends no answer, not even the server's cancel: the client gives up too.
        query_timeout: limits.statementMs + CLIENT_GRACE_MS,
        // Set on each new connection before the pool hands it out (a pooler, PgBouncer, refuses it as a
        // startup parameter); a connection that cannot take it is ended and the statement waiting fails.
        onConnect: async (client: pg.ClientBase) => {
          await client.query(`set statement_timeout = ${limits.statementMs}`);
        },
      }),
    });
    // Without a listener, an idle connection the server ends would end the process ('error' event).
    pool.on('error', (error) => connectionErrors.forEach((listener) => listener(error)));
    // Nor may one the server ends while a transaction holds it between two statements (a restart
    // under load): the pool hears only idle ones. The transaction's next statement fails (503), and
    // the pool drops the connection when it comes back.
    pool.on('connect', (client) => client.on('error', () => {}));
    return pool;
  };
  const pool = poolOf(10);
  // The rate limits' counting, on connections of its own: the public answers wait to hear of every
  // write the main pool ran (`listen`), and a count changes nothing they keep.
  const countersPool = poolOf(2);
  const db = drizzlePg({ client: pool, schema });
  const subscriptions = new Set<Subscription>();
  const close = async () => {
    await Promise.all([...subscriptions].map((subscription) => subscription.close()));
    await Promise.all([pool.end(), countersPool.end()]);
  };
  // On a connection of its own, with no statement timeout: building an index on a large table takes longer.
  const migrate = async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: limits?.connectMs });
    await client.connect();
    try {
      await migratePg(drizzlePg({ client }), { migrationsFolder });
    } finally {
      await client.end();
    }
  };
  return {
    ...handle(db as unknown as Database, 'postgres', migrate, close),
    counters: drizzlePg({ client: countersPool, schema }) as unknown as Database,
    onConnectionError: (listener) => void connectionErrors.add(listener),
    poolUse: () => ({ main: useOf(pool), rate_limits: useOf(countersPool) }),
    async listen(channel, onNotify, onTrouble) {
      const subscription = await listenOnServer(url, pool, channel, onNotify, onTrouble);
      subscriptions.add(subscription);
      return subscription;
    },
  };
}
