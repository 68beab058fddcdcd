import { failure, idParams, messages, sharePhoneSchema } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer, perUser } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { FoundInbox } from './inbox.js';
import type { PhoneSharing } from './sharePhone.js';

/** An owner shares the phone once a report; a handful of reports an hour is already a lot. */
const shareLimit = { max: 20, window: 60 * 60_000 };

/** The owner's inbox of found reports: owner-only, another owner's report answers 404 like a missing one. */
export const foundInboxRoutes: FastifyPluginAsyncZod<{ inbox: FoundInbox; sharing: PhoneSharing }> = async (
  app,
  { inbox, sharing },
) => {
  const tags = ['Found reports'];

  app.get('/found-reports', { schema: { tags }, config: { auth: 'signedIn' } }, async (request) => answer(await inbox.list(sessionOf(request))));

  app.get('/found-reports/unread-count', { schema: { tags }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await inbox.unread(sessionOf(request))),
  );

  app.get('/found-reports/:id', { schema: { tags, params: idParams }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await inbox.open(sessionOf(request), request.params.id)),
  );

  // Not cached by shared caches: the photo is the owner's only. Its report never changes it.
  app.get('/found-reports/:id/photo', { schema: { tags, params: idParams }, config: { auth: 'signedIn' } }, async (request, reply) => {
    const photo = await inbox.photo(sessionOf(request), request.params.id);
    if (!photo) return reply.status(404).send(failure([messages.notFound]));
    return reply.type('image/jpeg').header('cache-control', 'private, max-age=86400').send(photo);
  });

  app.post(
    '/found-reports/:id/share-phone',
    { schema: { tags, params: idParams, body: sharePhoneSchema }, config: { auth: 'signedIn', ...perUser(shareLimit) } },
    async (request) => answer(await sharing.sharePhone(sessionOf(request), request.params.id, request.body)),
  );

  app.post('/found-reports/:id/reunited', { schema: { tags, params: idParams }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await inbox.reunited(sessionOf(request), request.params.id)),
  );
};
