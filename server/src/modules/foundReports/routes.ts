import { foundReportSchema, foundReportTargetQuery } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer, perIp, withImageBodyLimit } from '../../http.js';
import type { FoundReports } from './report.js';

/**
 * No sign-in: the form opens as often as the lookup may be asked; a report mails a stranger's words
 * to an owner, so one address sends a few an hour (a finder sends one, perhaps corrects it once).
 */
const limits = {
  target: { max: 30, window: 60_000 },
  report: { max: 5, window: 60 * 60_000 },
};

export const foundReportRoutes: FastifyPluginAsyncZod<{ foundReports: FoundReports }> = async (app, { foundReports }) => {
  const tags = ['Public'];

  app.get('/public/found-report', { schema: { tags, querystring: foundReportTargetQuery }, config: perIp(limits.target) }, async (request) =>
    answer(await foundReports.target({ publicId: request.query.pet, chipId: request.query.chip })),
  );

  // The photo comes as a data URL in the JSON body, as a pet's photo does.
  app.post(
    '/public/found-report',
    { schema: { tags, body: foundReportSchema }, config: perIp(limits.report), bodyLimit: withImageBodyLimit },
    async (request) => answer(await foundReports.report(request.body)),
  );
};
