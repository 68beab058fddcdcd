import { failure, fileParams, idParams, messages, petImageQuery, petProfileSchema, petRegistrationSchema } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer, sendImage, withImageBodyLimit } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { PetService } from './service.js';

export const petRoutes: FastifyPluginAsyncZod<{ pets: PetService }> = async (app, { pets }) => {
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
