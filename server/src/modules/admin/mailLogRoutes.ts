import { idParams, mailLogQuery, mailParams, roleGroups } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { MailLog } from './mailLog.js';

/** The mail log (admin-send-email): what the portal sent or will send, and a failed e-mail sent again. */
export const mailLogRoutes: FastifyPluginAsyncZod<{ mailLog: MailLog }> = async (app, { mailLog }) => {
  const tags = ['Mail log (administrators)'];
  const config = { auth: roleGroups.admin };

  app.get('/admin/mail', { schema: { tags, querystring: mailLogQuery }, config }, async (request) => answer(await mailLog.list(request.query)));

  app.get('/admin/mail/:queue/:id', { schema: { tags, params: mailParams }, config }, async (request) =>
    answer(await mailLog.open(request.params.queue, request.params.id)),
  );

  app.post('/admin/mail/:queue/:id/resend', { schema: { tags, params: mailParams }, config }, async (request) =>
    answer(await mailLog.resend(sessionOf(request), request.params.queue, request.params.id)),
  );

  app.post('/admin/mail/outbox/:id/bounced', { schema: { tags, params: idParams }, config }, async (request) =>
    answer(await mailLog.markBounced(sessionOf(request), request.params.id)),
  );
};
