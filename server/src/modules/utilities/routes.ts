import { idParams, legalDocuments, messages, requestObject } from '@petreg/contract';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer } from '../../http.js';
import type { UtilityService } from './service.js';

export const utilityRoutes: FastifyPluginAsyncZod<{ utilities: UtilityService }> = async (app, { utilities }) => {
  const tags = ['Utilities'];

  app.get('/utilities/static-data', { schema: { tags } }, async () => answer(await utilities.staticData()));

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

  app.get('/utilities/health-check', { schema: { tags } }, async (_request, reply) => {
    const health = await utilities.health();
    return reply.status(health.database ? 200 : 503).send(answer(health));
  });
};
