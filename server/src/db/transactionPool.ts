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
 * A connection that sends every statement unnamed: the server parses and plans a named one once per
 * connection, which a pooler in transaction mode cannot promise.
 */
export class UnnamedStatementsClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [statement] = args;
    if (statement && typeof statement === 'object' && 'name' in statement) args[0] = { ...statement, name: undefined };
    return (super.query as (...given: unknown[]) => never)(...args);
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
