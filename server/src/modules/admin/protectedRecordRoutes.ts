import { adminUserParams, protectedRecordSchema, roleGroups } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { ProtectedRecords } from './protectedRecord.js';

/** The protected-record flag on the administrator's record (issue 20); owners can neither set nor clear it. */
export const protectedRecordRoutes: FastifyPluginAsyncZod<{ protectedRecords: ProtectedRecords }> = async (app, { protectedRecords }) => {
  app.put(
    '/admin/protected-record/:userId',
    {
      schema: {
        tags: ['Pet records (administrators)'],
        params: adminUserParams,
        body: protectedRecordSchema,
        description: "Sets or clears the account's protected-record flag, with the reason: finders and professionals then see nothing of the owner.",
      },
      config: { auth: roleGroups.admin },
    },
    async (request) => answer(await protectedRecords.set(sessionOf(request), request.params.userId, request.body)),
  );
};
