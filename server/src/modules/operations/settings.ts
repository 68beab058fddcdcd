import { z } from 'zod';

/** What operators watch the portal with (issue 21): metrics for Prometheus and error reports to Sentry; both off unless set. */
export interface OperationsSettings {
  /** The bearer token /metrics asks for; null: /metrics is off. */
  metricsToken: string | null;
  /** Where unexpected errors are reported (a Sentry DSN); null: nothing is reported, and Sentry is not even loaded. */
  sentryDsn: string | null;
}

const optional = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/** The variables, parsed with the rest of the environment in config.ts. */
export const operationsEnv = {
  // A guessable token would hand the portal's traffic figures to anyone.
  METRICS_TOKEN: optional.refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
  SENTRY_DSN: optional.pipe(z.url('must be a Sentry DSN, such as https://key@o1.ingest.sentry.io/2').optional()),
};

type OperationsEnv = { [K in keyof typeof operationsEnv]?: z.output<(typeof operationsEnv)[K]> };

export function operationsOf(e: OperationsEnv): OperationsSettings {
  return { metricsToken: e.METRICS_TOKEN ?? null, sentryDsn: e.SENTRY_DSN ?? null };
}
