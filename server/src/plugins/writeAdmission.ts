import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { answerUnavailable } from '../errorHandler.js';
import { readsOnly } from '../http.js';

export interface WriteAdmissionOptions {
  /** Writes let in at once; one more is refused until one of them has answered. */
  maxInFlight: number;
  /** Seconds the refused client is asked to wait: the writes ahead of it answer within about that. */
  retryAfterS: number;
}

/**
 * The embedded database runs one statement at a time for the whole process, so writes queue behind
 * each other and a burst of them made every write (and every read that needs the database) wait past
 * its client's deadline: at 100 writing connections, ten-second timeouts. Past `maxInFlight` writes in
 * progress, a write is refused at once with 503 and Retry-After, before its body is read; the writes
 * let in answer in time, and reads (the kept public answers need no database) keep flowing.
 */
export const writeAdmissionPlugin = fp(async (app: FastifyInstance, { maxInFlight, retryAfterS }: WriteAdmissionOptions) => {
  let inFlight = 0;
  const admit: onRequestHookHandler = (_request, reply, done) => {
    if (inFlight >= maxInFlight) {
      void answerUnavailable(reply, retryAfterS);
      return;
    }
    inFlight++;
    // 'close' comes once the answer is sent or the client went away, whatever happened in between.
    reply.raw.once('close', () => inFlight--);
    done();
  };
  // On the routes that write only: the reads, the public lookups first, skip the hook altogether. First
  // of their hooks (registered after the session's, which puts itself first): a write refused costs no
  // session check, which on the embedded database would queue behind the writes let in.
  app.addHook('onRoute', (route) => {
    if (readsOnly(route)) return;
    route.onRequest = [admit, ...[route.onRequest ?? []].flat()];
  });
});
