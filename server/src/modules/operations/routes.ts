import { createHash, timingSafeEqual } from 'node:crypto';
import { failure, messages } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answer, perIp } from '../../http.js';
import type { Metrics } from './metrics.js';
import { readinessSchema, type Readiness } from './readiness.js';

/** A scraper asks every 15 to 60 seconds; a stranger guessing the token is held to this. */
const metricsLimit = { max: 60, window: 60_000 };

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the Authorization header carries the token, compared in constant time (both hashed first: equal lengths). */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), expected);
}

const envelopeOf = <T extends z.ZodType>(result: T) => z.object({ succeeded: z.boolean(), result, errors: z.array(z.string()) });

/**
 * The operator's routes, at the root as orchestrators and load balancers expect them. /livez and
 * /readyz take no limit (a load balancer asks often, from few addresses) and cost at most two small
 * queries; /metrics asks for METRICS_TOKEN and is limited like any public route.
 */
export const operationsRoutes: FastifyPluginAsyncZod<{ metrics: Metrics; metricsToken: string | null; readiness: () => Promise<Readiness> }> = async (
  app,
  { metrics, metricsToken, readiness },
) => {
  const tags = ['Operations'];

  app.get(
    '/livez',
    { schema: { tags, summary: 'The process answers', response: { 200: envelopeOf(z.object({ live: z.literal(true) })) } } },
    async () => answer({ live: true as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags,
        summary: 'The database answers, holds every migration, and changes are heard (503 naming the check that failed otherwise)',
        response: { 200: envelopeOf(readinessSchema), 503: envelopeOf(readinessSchema) },
      },
    },
    async (_request, reply) => {
      const ready = await readiness();
      return reply.status(ready.ready ? 200 : 503).send(answer(ready));
    },
  );

  const scrape = metrics.scrape;
  const expected = metricsToken === null ? null : digest(metricsToken);
  app.get('/metrics', { schema: { hide: true }, config: perIp(metricsLimit) }, async (request, reply) => {
    if (!scrape || !expected) return reply.status(404).send(failure([messages.notFound]));
    // The same answer for a missing token and a wrong one.
    if (!bearerMatches(request.headers.authorization, expected)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send(failure([messages.invalidAccessToken]));
    }
    const { contentType, text } = await scrape();
    return reply.type(contentType).header('cache-control', 'no-store').send(text);
  });
};
