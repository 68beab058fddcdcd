import { acceptPetTransferByLinkSchema, acceptPetTransferSchema, idParams, petTransferTokenSchema, startPetTransferSchema } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer, perIp, perUser } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { TransferAcceptance } from './transferAcceptance.js';
import type { OwnerTransfers } from './transfers.js';

const MINUTE = 60_000;
const rateLimits = {
  /** Each offer e-mails a stranger's address: an owner makes a few, not a stream. */
  start: { max: 10, window: 60 * MINUTE },
  /** The mailed link's page and answers, by address: codes are not guessed. */
  link: { max: 30, window: MINUTE },
};

/** Transfers owners offer themselves (issue 20). */
export const petTransferRoutes: FastifyPluginAsyncZod<{ transfers: OwnerTransfers; acceptance: TransferAcceptance }> = async (app, { transfers, acceptance }) => {
  const tags = ['Pet transfers'];
  const signedIn = { auth: 'signedIn' as const };

  app.post(
    '/Pet/:id/transfer',
    { schema: { tags, params: idParams, body: startPetTransferSchema, description: 'Offers the pet to the owner of the e-mail, who has 7 days to accept.' }, config: { ...signedIn, ...perUser(rateLimits.start) } },
    async (request) => answer(await transfers.start(sessionOf(request), request.params.id, request.body.email)),
  );

  app.get('/Pet/transfers', { schema: { tags, description: 'The open offers the account made, and those made to its e-mail.' }, config: signedIn }, async (request) =>
    answer(await transfers.list(sessionOf(request))),
  );

  app.post('/Pet/transfers/:id/cancel', { schema: { tags, params: idParams }, config: signedIn }, async (request) =>
    answer(await transfers.cancel(sessionOf(request), request.params.id)),
  );

  app.post('/Pet/transfers/:id/accept', { schema: { tags, params: idParams, body: acceptPetTransferSchema }, config: signedIn }, async (request) =>
    answer(await acceptance.acceptSignedIn(sessionOf(request), request.params.id, request.body.shareContactInfo)),
  );

  app.post('/Pet/transfers/:id/decline', { schema: { tags, params: idParams }, config: signedIn }, async (request) =>
    answer(await transfers.decline(sessionOf(request), request.params.id)),
  );

  // The mailed link's page: no sign-in, the code is the proof.
  app.get('/public/pet-transfer', { schema: { tags, querystring: petTransferTokenSchema }, config: perIp(rateLimits.link) }, async (request) =>
    answer(await transfers.offerOfLink(request.query.token)),
  );

  app.post('/public/pet-transfer/accept', { schema: { tags, body: acceptPetTransferByLinkSchema }, config: perIp(rateLimits.link) }, async (request) =>
    answer(await acceptance.acceptByLink(request.body.token, request.body.shareContactInfo)),
  );

  app.post('/public/pet-transfer/decline', { schema: { tags, body: petTransferTokenSchema }, config: perIp(rateLimits.link) }, async (request) =>
    answer(await transfers.declineByLink(request.body.token)),
  );
};
