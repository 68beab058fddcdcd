import { backupContactSchema, idParams } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { ContactService } from './service.js';


export const contactRoutes: FastifyPluginAsyncZod<{ contacts: ContactService }> = async (app, { contacts }) => {
  const tags = ['Backup contacts'];

  app.get('/Users/backup-contacts', { schema: { tags }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await contacts.list(sessionOf(request))),
  );

  app.post('/Users/backup-contact', { schema: { tags, body: backupContactSchema }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await contacts.save(sessionOf(request), request.body)),
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
