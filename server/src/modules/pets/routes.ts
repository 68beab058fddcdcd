import { failure, messages, petProfileSchema, petRegistrationSchema } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answer } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { PetService } from './service.js';

const idParams = z.object({ id: z.coerce.number().int().positive() });
/** Room for a 10 MB photo sent as a data URL. */
const WITH_IMAGE_BODY_LIMIT = 15 * 1024 * 1024;
const owners = ['customer', 'paidcustomer', 'admin'] as const;

export const petRoutes: FastifyPluginAsyncZod<{ pets: PetService }> = async (app, { pets }) => {
  const tags = ['Pets'];

  app.get('/pet/user-pets', { schema: { tags }, config: { auth: owners } }, async (request) =>
    answer(await pets.listForOwner(sessionOf(request).userId)),
  );

  app.get('/pet/user-pet-list', { schema: { tags }, config: { auth: owners } }, async (request) =>
    answer(await pets.listForOwner(sessionOf(request).userId)),
  );

  app.post(
    '/Pet/create-pet',
    { schema: { tags, body: petRegistrationSchema }, config: { auth: owners }, bodyLimit: WITH_IMAGE_BODY_LIMIT },
    async (request) => answer(await pets.create(sessionOf(request), request.body)),
  );

  app.put(
    '/Pet/pet-profile',
    { schema: { tags, body: petProfileSchema }, config: { auth: owners }, bodyLimit: WITH_IMAGE_BODY_LIMIT },
    async (request) => answer(await pets.update(sessionOf(request), request.body)),
  );

  app.get('/Pet/:id', { schema: { tags, params: idParams }, config: { auth: owners } }, async (request) =>
    answer(await pets.get(sessionOf(request), request.params.id)),
  );

  app.put(
    '/Pet/:id',
    { schema: { tags, params: idParams, body: petProfileSchema }, config: { auth: owners }, bodyLimit: WITH_IMAGE_BODY_LIMIT },
    async (request, reply) => {
      if (request.body.id !== request.params.id) return reply.status(400).send(failure([messages.petIdMismatch]));
      return answer(await pets.update(sessionOf(request), request.body));
    },
  );

  app.get('/utilities/breeds-by-petid/:id', { schema: { tags, params: idParams }, config: { auth: owners } }, async (request) =>
    answer(await pets.breedsForPet(sessionOf(request), request.params.id)),
  );

  // Public: the photo shows on the pet's public profile; the name is random and unguessable.
  app.get('/pet/pet-images/:file', { schema: { tags, params: z.object({ file: z.string().max(100) }) } }, async (request, reply) => {
    const image = await pets.image(request.params.file);
    if (!image) return reply.status(404).send(failure([messages.notFound]));
    return reply.type('image/jpeg').header('cache-control', 'public, max-age=31536000, immutable').send(image);
  });
};
