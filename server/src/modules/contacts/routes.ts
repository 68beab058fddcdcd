import { backupContactSchema, confirmBackupContactSchema, idParams } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer, perIp, perUser } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { ContactService } from './service.js';

const MINUTE = 60_000;
const limits = {
  // The service holds an account to 5 confirmation texts an hour; this bounds the calls.
  resend: { max: 10, window: MINUTE },
  confirm: { max: 10, window: MINUTE },
};

export const contactRoutes: FastifyPluginAsyncZod<{ contacts: ContactService }> = async (app, { contacts }) => {
  const tags = ['Backup contacts'];

  app.get('/Users/backup-contacts', { schema: { tags }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await contacts.list(sessionOf(request))),
  );

  app.post('/Users/backup-contact', { schema: { tags, body: backupContactSchema }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await contacts.save(sessionOf(request), request.body)),
  );

  app.post(
    '/Users/BackupContact/:id/resend-confirmation',
    { schema: { tags, params: idParams }, config: { auth: 'signedIn', ...perUser(limits.resend) } },
    async (request) => answer(await contacts.resendConfirmation(sessionOf(request), request.params.id)),
  );

  // Public: the contact follows the link texted to them, with no account.
  app.post('/public/backup-contact/confirm', { schema: { tags, body: confirmBackupContactSchema }, config: perIp(limits.confirm) }, async (request) => {
    await contacts.confirm(request.body.token);
    return answer(true);
  });

  app.delete(
    '/Users/BackupContact/:id',
    { schema: { tags, params: idParams }, config: { auth: 'signedIn' } },
    async (request) => {
      await contacts.remove(sessionOf(request), request.params.id);
      return answer(true);
    },
  );
};
