import { idParams, legalDocuments, messages, requestObject, zipParams } from '@petreg/contract';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer, fixedJson, perIp, sendFixedJson } from '../../http.js';
import type { UtilityService } from './service.js';

/** Public: a form looks a ZIP up once or twice; this stops one address from walking the table. */
const zipLimit = { max: 60, window: 60_000 };

export const utilityRoutes: FastifyPluginAsyncZod<{ utilities: UtilityService }> = async (app, { utilities }) => {
  const tags = ['Utilities'];

  // Species and brands are seeded at start-up and written nowhere else: read once, sent as the same bytes.
  // Every page asks for them; a browser keeps them five minutes, then asks whether they changed.
  const staticData = fixedJson(async () => answer(await utilities.staticData()));
  app.get('/utilities/static-data', { schema: { tags } }, async (request, reply) =>
    sendFixedJson(request, reply, await staticData(), 'public, max-age=300'),
  );

  app.get(
    '/utilities/breeds-by-species/:id',
    { schema: { tags, params: idParams } },
    async (request) => answer(await utilities.breedsBySpecies(request.params.id)),
  );

  app.get('/utilities/states', { schema: { tags } }, async () => answer(await utilities.states()));

  app.get('/utilities/settings', { schema: { tags } }, async () => answer(await utilities.settings()));

  app.get(
    '/utilities/legal/:document',
    { schema: { tags, params: requestObject({ document: z.enum(legalDocuments, { error: messages.notFound }) }) } },
    async (request) => answer(await utilities.legal(request.params.document)),
  );

  app.get(
    '/utilities/zip/:zip',
    { schema: { tags, params: zipParams }, config: perIp(zipLimit) },
    async (request) => answer(await utilities.zipCode(request.params.zip)),
  );

  app.get('/utilities/health-check', { schema: { tags } }, async (_request, reply) => {
    const health = await utilities.health();
    return reply.status(health.database ? 200 : 503).send(answer(health));
  });
};
