import { adminChipSearchQuery, adminUserSearchSchema, cardPaymentSearchQuery, roleGroups } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer } from '../../http.js';
import type { AdminSearch } from './search.js';

/** The administrators' search (admin-search): a pet by chip, accounts, card payments by last 4 digits. */
export const adminSearchRoutes: FastifyPluginAsyncZod<{ search: AdminSearch }> = async (app, { search }) => {
  const tags = ['Search (administrators)'];
  const config = { auth: roleGroups.admin };

  app.get(
    '/admin/pet-by-microchip',
    { schema: { tags, querystring: adminChipSearchQuery, description: 'The pet a chip leads to, removed pets too (marked); 404 "No Records found".' }, config },
    async (request) => answer(await search.petByMicrochip(request.query)),
  );

  app.post('/Users/SearchUsersByAdmin', { schema: { tags, body: adminUserSearchSchema }, config }, async (request) =>
    answer(await search.users(request.body)),
  );

  app.get('/admin/stripe-transactions', { schema: { tags, querystring: cardPaymentSearchQuery }, config }, async (request) =>
    answer(await search.cardPayments(request.query)),
  );
};
