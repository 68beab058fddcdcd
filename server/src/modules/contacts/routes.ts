import { backupContactSchema, confirmBackupContactSchema, confirmContactsSchema, idParams, roleGroups } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer, perIp, perUser } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { OwnerCheck } from './ownerCheck.js';
import type { ContactService } from './service.js';

const MINUTE = 60_000;
const limits = {
  // The service holds an account to 5 confirmation texts an hour; this bounds the calls.
  resend: { max: 10, window: MINUTE },
  confirm: { max: 10, window: MINUTE },
  // An administrator resends for any owner; each owner's 5 texts an hour still hold.
  adminResend: { max: 20, window: MINUTE },
};

export const contactRoutes: FastifyPluginAsyncZod<{ contacts: ContactService; ownerCheck: OwnerCheck }> = async (app, { contacts, ownerCheck }) => {
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

  app.post(
    '/admin/backup-contact/:id/resend-confirmation',
    { schema: { tags, params: idParams }, config: { auth: roleGroups.admin, ...perUser(limits.adminResend) } },
    async (request) => answer(await contacts.resendConfirmationAsAdmin(sessionOf(request), request.params.id)),
  );

  // "Is this still how we reach you?": the link mailed or texted to the owner confirms with no sign-in.
  app.post(
    '/public/contacts/confirm',
    { schema: { tags: ['Contact checks'], body: confirmContactsSchema }, config: perIp(limits.confirm) },
    async (request) => answer(await ownerCheck.confirmByLink(request.body.token)),
  );

  // The same answer from the dashboard's banner, signed in.
  app.get('/Users/contacts-check', { schema: { tags: ['Contact checks'] }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await ownerCheck.check(sessionOf(request))),
  );

  app.post('/Users/contacts/confirm', { schema: { tags: ['Contact checks'] }, config: { auth: 'signedIn', ...perUser(limits.confirm) } }, async (request) =>
    answer(await ownerCheck.confirmSignedIn(sessionOf(request))),
  );

  app.delete(
    '/Users/BackupContact/:id',
    { schema: { tags, params: idParams }, config: { auth: 'signedIn' } },
    async (request) => {
      await contacts.remove(sessionOf(request), request.params.id);
      return answer(true);
    },
  );
};
