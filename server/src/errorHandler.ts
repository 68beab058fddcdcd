import { failure, messages } from '@petreg/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { StorageUnavailableError } from './adapters/storage/index.js';
import { isDatabaseUnavailable, isPreparedStatementLost } from './db/errors.js';
import { AppError, loggable } from './errors.js';
import { withImageBodyLimit } from './http.js';

/** Seconds a client is asked to wait when the database or the bucket is out of reach (a restart takes a few). */
const RETRY_AFTER_S = 5;

/** 503 with Retry-After in the product's words: the same request may succeed in a moment. */
export const answerUnavailable = (reply: FastifyReply, retryAfterS = RETRY_AFTER_S) =>
  reply.status(503).header('retry-after', String(retryAfterS)).send(failure([messages.serviceUnavailable]));

/**
 * Every error as the API answers it: the product's words, one message per field, 503 while the database
 * or the bucket is out of reach, never a stack. Only the unexpected (the 500s) are reported (SENTRY_DSN).
 */
export function answerErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) return reply.status(error.statusCode).send(failure(error.errors));
  if (hasZodFastifySchemaValidationErrors(error)) {
    // One message per field, the first the schema reports, in the order the form shows them.
    const byField = new Map<string, string>();
    for (const issue of error.validation) {
      const field = issue.instancePath ?? '';
      if (!byField.has(field)) byField.set(field, issue.message ?? messages.genericError);
    }
    return reply.status(400).send(failure([...byField.values()]));
  }
  const status = error.statusCode ?? 500;
  // Fastify's own refusals (body too large, unreadable JSON, unknown content type) in the product's words.
  if (status === 413) {
    const takesImage = (request.routeOptions.bodyLimit ?? 0) >= withImageBodyLimit;
    return reply.status(413).send(failure([takesImage ? messages.imageTooLarge : messages.requestTooLarge]));
  }
  if (status < 500) return reply.status(status).send(failure([status === 404 ? messages.notFound : messages.invalidRequest]));
  // A restart, a failover or a frozen link: the same request may succeed in a moment.
  if (isDatabaseUnavailable(error) || error instanceof StorageUnavailableError) {
    request.log.warn({ err: loggable(error) }, error instanceof StorageUnavailableError ? error.message : 'the database is out of reach');
    return answerUnavailable(reply);
  }
  // Behind PgBouncer in transaction mode without prepared statements: the operator is told what to set.
  const hint = isPreparedStatementLost(error)
    ? ': DATABASE_URL reaches the server through a pooler in transaction mode that keeps no prepared statements; set DATABASE_POOL_MODE=transaction'
    : '';
  request.log.error({ err: loggable(error) }, `request failed${hint}`);
  request.server.errorReports.request(error, request);
  return reply.status(500).send(failure([messages.genericError]));
}
