import { failure, fileParams, idParams, messages, petCardQuery, petImageQuery, petProfileSchema, petRegistrationSchema } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer, perUser, sendImage, withImageBodyLimit } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { createPetCards } from './card.js';
import type { PetService } from './service.js';

/** Drawing a card decodes the photo and draws a QR code: a few a minute is all a printer needs. */
const CARD_LIMIT = { max: 20, window: 60_000 };

export const petRoutes: FastifyPluginAsyncZod<{ pets: PetService; cards: ReturnType<typeof createPetCards> }> = async (app, { pets, cards }) => {
  const tags = ['Pets'];

  app.get('/pet/user-pets', { schema: { tags }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await pets.listForOwner(sessionOf(request).userId)),
  );

  app.get('/pet/user-pet-list', { schema: { tags }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await pets.listForOwner(sessionOf(request).userId)),
  );

  app.post(
    '/Pet/create-pet',
    { schema: { tags, body: petRegistrationSchema }, config: { auth: 'signedIn' }, bodyLimit: withImageBodyLimit },
    async (request) => answer(await pets.create(sessionOf(request), request.body)),
  );

  app.put(
    '/Pet/pet-profile',
    { schema: { tags, body: petProfileSchema }, config: { auth: 'signedIn' }, bodyLimit: withImageBodyLimit },
    async (request) => answer(await pets.update(sessionOf(request), request.body)),
  );

  app.get('/Pet/:id', { schema: { tags, params: idParams }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await pets.get(sessionOf(request), request.params.id)),
  );

  app.get(
    '/Pet/:id/card.pdf',
    { schema: { tags, params: idParams, querystring: petCardQuery }, config: { auth: 'signedIn', ...perUser(CARD_LIMIT), document: true } },
    async (request, reply) => {
      const { name, pdf } = await cards.card(sessionOf(request), request.params.id, request.query.size);
      // The name goes in the header's UTF-8 form only; the ASCII fallback keeps letters and digits.
      const file = `${name}-card-${request.query.size}.pdf`;
      const ascii = file.replace(/[^\w.-]+/g, '-');
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file)}`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.put(
    '/Pet/:id',
    { schema: { tags, params: idParams, body: petProfileSchema }, config: { auth: 'signedIn' }, bodyLimit: withImageBodyLimit },
    async (request, reply) => {
      if (request.body.id !== request.params.id) return reply.status(400).send(failure([messages.petIdMismatch]));
      return answer(await pets.update(sessionOf(request), request.body));
    },
  );

  app.get('/utilities/breeds-by-petid/:id', { schema: { tags, params: idParams }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await pets.breedsForPet(sessionOf(request), request.params.id)),
  );

  // Public: the photo shows on the pet's public profile; the name is random and unguessable.
  app.get('/pet/pet-images/:file', { schema: { tags, params: fileParams, querystring: petImageQuery } }, async (request, reply) => {
    return sendImage(reply, await pets.image(request.params.file, request.query.size));
  });
};
