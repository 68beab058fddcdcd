import { adminPetParams, adminPetSchema, adminUserParams, adminUserSchema, failure, messages, petHoldSchema, roleGroups, transferPetSchema } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer, withImageBodyLimit } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { PetSupportView } from './petSupport.js';
import type { AdminRecords } from './records.js';
import type { PetRemovalService } from './removal.js';
import type { PetTransferService } from './transfer.js';
import type { TransferHolds } from './transferHold.js';

/** The administrator's pet record (admin/pet/:id): the owner, the pet, transfer and removal (spec 7, Admin). */
export const adminRecordRoutes: FastifyPluginAsyncZod<{
  records: AdminRecords;
  support: PetSupportView;
  transfers: PetTransferService;
  holds: TransferHolds;
  removals: PetRemovalService;
}> = async (app, { records, support, transfers, holds, removals }) => {
  const tags = ['Pet records (administrators)'];
  const config = { auth: roleGroups.admin };

  app.get('/admin/pet-user/:userId', { schema: { tags, params: adminUserParams }, config }, async (request) =>
    answer(await records.getUser(request.params.userId)),
  );

  app.put('/admin/update-user/:userId', { schema: { tags, params: adminUserParams, body: adminUserSchema }, config }, async (request) =>
    answer(await records.updateUser(sessionOf(request), request.params.userId, request.body)),
  );

  app.get('/admin/user-pet/:petId', { schema: { tags, params: adminPetParams }, config }, async (request) =>
    answer(await records.getPet(request.params.petId)),
  );

  app.get(
    '/admin/pet-support/:petId',
    { schema: { tags, params: adminPetParams, description: 'Lost status, backup contacts, vets, payments and the last e-mails to the owner.' }, config },
    async (request) => answer(await support.forPet(request.params.petId)),
  );

  app.put(
    '/admin/update-pet/:petId',
    { schema: { tags, params: adminPetParams, body: adminPetSchema }, config, bodyLimit: withImageBodyLimit },
    async (request, reply) => {
      if (request.body.id !== request.params.petId) return reply.status(400).send(failure([messages.petIdMismatch]));
      return answer(await records.updatePet(sessionOf(request), request.body));
    },
  );

  app.post('/admin/transfer-pet/:petId', { schema: { tags, params: adminPetParams, body: transferPetSchema }, config }, async (request) =>
    answer(await transfers.transfer(sessionOf(request), request.params.petId, request.body)),
  );

  app.put(
    '/admin/pet-hold/:petId',
    { schema: { tags, params: adminPetParams, body: petHoldSchema, description: "Puts the pet's transfers on hold for a dispute: its owner cannot transfer it." }, config },
    async (request) => answer(await holds.set(sessionOf(request), request.params.petId, request.body.reason)),
  );

  app.delete('/admin/pet-hold/:petId', { schema: { tags, params: adminPetParams, description: 'Lifts the dispute hold.' }, config }, async (request) =>
    answer(await holds.lift(sessionOf(request), request.params.petId)),
  );

  // A GET that removes, as spec 7 names it; the bearer token (never a cookie) keeps other sites from calling it.
  app.get('/admin/remove-pet/:petId', { schema: { tags, params: adminPetParams }, config }, async (request) =>
    answer(await removals.remove(sessionOf(request), request.params.petId)),
  );
};
