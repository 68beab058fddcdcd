import { apiKeyIssueSchema, apiKeyParams, roleGroups } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { ApiKeyAdministration } from './apiKeys.js';

/** admin-api-keys: the keys to the open lookup (GET public/lookup/{chip}), issued and revoked by administrators. */
export const apiKeyRoutes: FastifyPluginAsyncZod<{ apiKeys: ApiKeyAdministration }> = async (app, { apiKeys }) => {
  const tags = ['API keys (administrators)'];
  const config = { auth: roleGroups.admin };

  app.get('/admin/api-keys', { schema: { tags }, config }, async () => answer(await apiKeys.list()));

  app.post(
    '/admin/api-keys',
    { schema: { tags, body: apiKeyIssueSchema, description: 'Issues a key; the answer holds the key itself, shown this once (only its SHA-256 is kept).' }, config },
    async (request) => answer(await apiKeys.issue(sessionOf(request), request.body)),
  );

  app.post('/admin/api-keys/:id/revoke', { schema: { tags, params: apiKeyParams }, config }, async (request) =>
    answer(await apiKeys.revoke(sessionOf(request), request.params.id)),
  );
};
