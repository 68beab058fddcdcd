import type { Event, Scope } from '@sentry/node';
import type { FastifyRequest } from 'fastify';
import { scrubBreadcrumb, scrubEvent } from './scrub.js';

/** How long closing waits for reports still on their way. */
const FLUSH_WITHIN_MS = 2000;

/** Unexpected failures, reported to Sentry when SENTRY_DSN is set; expected ones (4xx, a database out of reach) never are. */
export interface ErrorReports {
  /** A request that failed unexpectedly (its 500). */
  request(error: unknown, request: FastifyRequest): void;
  /** A round of the worker's that failed (its job named). */
  job(error: unknown, name: string): void;
  close(): Promise<void>;
}

export const noErrorReports: ErrorReports = { request() {}, job() {}, close: async () => {} };

/**
 * Reports to the DSN through a Sentry client of this app's own (no global `Sentry.init`: tests build
 * many apps in one process, and the worker reports through the app's client). Only what an error
 * needs: no auto-instrumentation, so no OpenTelemetry and no module hooks (which an ES module
 * portal would have to load with `node --import`), no request data, no console breadcrumbs. Every
 * event and breadcrumb is scrubbed (see scrub.ts). Without a DSN, Sentry is not even loaded.
 */
export async function createErrorReports(dsn: string | null): Promise<ErrorReports> {
  if (!dsn) return noErrorReports;
  const Sentry = await import('@sentry/node');
  const client = new Sentry.NodeClient({
    dsn,
    transport: Sentry.makeNodeTransport,
    stackParser: Sentry.defaultStackParser,
    integrations: [Sentry.linkedErrorsIntegration(), Sentry.dedupeIntegration()],
    enableRuntimeChannelInjection: false,
    // Nothing about people is collected in the first place; scrubbing (below) is the second line.
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
    sendClientReports: false,
    beforeSend: scrubEvent,
    beforeBreadcrumb: scrubBreadcrumb,
  });
  const scope = new Sentry.Scope();
  scope.setClient(client);
  client.init();

  const capture = (error: unknown, about: (event: Scope) => Scope, mechanism: string) =>
    about(scope.clone()).captureException(error, { mechanism: { type: mechanism, handled: false } });

  return {
    request(error, request) {
      const route = request.routeOptions.url ?? 'unmatched';
      capture(
        error,
        (event) =>
          event
            .setTag('route', route)
            .setTransactionName(`${request.method} ${route}`)
            // Scrubbed in beforeSend with the rest of the event.
            .addEventProcessor((reported: Event) => ({ ...reported, request: { method: request.method, url: request.url } })),
        'fastify',
      );
    },
    job(error, name) {
      capture(error, (event) => event.setTag('job', name).setTransactionName(`worker: ${name}`), 'worker');
    },
    async close() {
      await client.close(FLUSH_WITHIN_MS);
    },
  };
}
