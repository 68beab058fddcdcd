import pg from 'pg';
import { isDatabaseUnavailable } from './errors.js';

/**
 * A pool whose transactions give their connection back whatever fails. drizzle 0.45's pooled
 * transaction runs BEGIN before the `try` whose `finally` releases the connection
 * (drizzle-orm#6241): a BEGIN on a connection the server ended or froze kept it checked out for
 * good, so a few restarts under load used up the pool and every later request waited. It also gives
 * back as healthy a connection whose statement timed out or whose server went away. The connections
 * this pool hands out by promise (drizzle's transactions only; `pool.query` takes them by callback)
 * release themselves when BEGIN fails, and are dropped rather than reused once one of their
 * statements found the database unavailable.
 */
export class TransactionPool extends pg.Pool {
  /**
   * The statements run that may have notified, counted as their connections come back (a connection
   * that is not a `WriteNotingClient` counts each time): what the public answers kept wait to hear of.
   */
  writesReleased = 0;

  constructor(config?: pg.PoolConfig) {
    super(config);
    this.on('release', (_error: unknown, connection: pg.PoolClient) => {
      if (!(connection instanceof WriteNotingClient) || connection.ranWrites()) this.writesReleased++;
    });
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void) {
    if (callback) return super.connect(callback);
    return super.connect().then(releasedOnFailure);
  }
}

/**
 * How the portal reaches a PostgreSQL server: directly or through a pooler in session mode, where a
 * connection keeps the statements it prepared; or through a pooler in transaction mode, where the next
 * transaction may run on another server connection, which has not (PgBouncer before 1.24 unless
 * `max_prepared_statements` is set, or with it at 0).
 */
export type PoolMode = 'session' | 'transaction';

/**
 * Statements that cannot notify: the notifications come only from the triggers of writes (migrations
 * 0012, 0017, 0026, 0028, 0032, 0035). The listening connection's own check (`select pg_notify`) is no write.
 */
const CANNOT_NOTIFY = /^\s*(select|begin|commit|rollback|set|show)\b/i;

/**
 * A connection that notes whether it ran a statement that may have notified since it was last asked
 * (`ranWrites`): the public answers kept in memory wait to hear of those statements, not of reads.
 */
export class WriteNotingClient extends pg.Client {
  private wrote = false;

  override query(...args: unknown[]): never {
    const [statement] = args;
    const text = typeof statement === 'string' ? statement : (statement as { text?: unknown } | undefined)?.text;
    if (typeof text !== 'string' || !CANNOT_NOTIFY.test(text)) this.wrote = true;
    return (super.query as (...given: unknown[]) => never)(...args);
  }

  /** Whether a statement that may have notified ran since the last call. */
  ranWrites(): boolean {
    const wrote = this.wrote;
    this.wrote = false;
    return wrote;
  }
}

/**
 * A connection that sends every statement unnamed: the server parses and plans a named one once per
 * connection, which a pooler in transaction mode cannot promise.
 */
export class UnnamedStatementsClient extends WriteNotingClient {
  override query(...args: unknown[]): never {
    const [statement] = args;
    if (statement && typeof statement === 'object' && 'name' in statement) args[0] = { ...statement, name: undefined };
    return super.query(...args);
  }
}

function releasedOnFailure(client: pg.PoolClient): pg.PoolClient {
  let unavailable: Error | undefined;
  let released = false;
  const release = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    client.release(error ?? unavailable);
  };
  const query = (statement: string | pg.QueryConfig, values?: unknown[]) =>
    client.query(statement, values).catch((error: Error) => {
      if (isDatabaseUnavailable(error)) unavailable = error;
      if (/^\s*begin\b/i.test(typeof statement === 'string' ? statement : statement.text)) release(error);
      throw error;
    });
  // Everything else (what drizzle reads of a connection) is the connection's own.
  return Object.assign(Object.create(client) as pg.PoolClient, { query, release });
}
