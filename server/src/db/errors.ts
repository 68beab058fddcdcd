/** True when PostgreSQL refused a write for breaking a unique index (SQLSTATE 23505), however the driver wraps it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return true;
  }
  return false;
}

/** True when a statement named a table that does not exist (SQLSTATE 42P01): a database not migrated yet. */
export function isMissingTable(error: unknown): boolean {
  return someCause(error, (e) => e.code === '42P01');
}

/**
 * True when the server knew no prepared statement of the name the connection used, or had one already
 * (SQLSTATE 26000, 42P05): the connection reaches it through a pooler in transaction mode that keeps no
 * prepared statements, and DATABASE_POOL_MODE does not say so.
 */
export function isPreparedStatementLost(error: unknown): boolean {
  return someCause(error, (e) => e.code === '26000' || e.code === '42P05');
}

/** Whether a statement or connection gave up waiting for the database (a frozen server or link). */
export function isTimeout(error: unknown): boolean {
  return someCause(error, (e) => e.code === 'ETIMEDOUT' || /^(Query read timeout|timeout expired|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/.test(e.message ?? ''));
}

/** PostgreSQL's codes for a server that is going down, starting, or out of connections, and for a statement it gave up (statement_timeout). */
const unavailableCodes = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
const unreachableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * True when the database could not be reached or did not answer (a restart, a failover, a frozen
 * connection): the request may succeed a moment later, unlike a failure of the statement itself.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return (
    isTimeout(error) ||
    someCause(error, (e) => {
      const code = typeof e.code === 'string' ? e.code : '';
      return (
        unavailableCodes.has(code) ||
        unreachableCodes.has(code) ||
        // Class 08: connection exceptions.
        /^08[0-9A-Z]{3}$/.test(code) ||
        /^(Connection terminated|Client has encountered a connection error|Cannot use a pool after calling end)/.test(e.message ?? '')
      );
    })
  );
}

interface Cause {
  code?: unknown;
  message?: string;
  cause?: unknown;
  errors?: unknown;
}

/** Whether the error, a cause of it (drizzle wraps the driver's) or one of an AggregateError's errors (a host's several addresses) matches. */
function someCause(error: unknown, matches: (e: Cause) => boolean): boolean {
  for (let e = error as Cause | undefined; e && typeof e === 'object'; e = e.cause as Cause | undefined) {
    if (matches(e)) return true;
    if (Array.isArray(e.errors) && e.errors.some((inner) => someCause(inner, matches))) return true;
  }
  return false;
}
