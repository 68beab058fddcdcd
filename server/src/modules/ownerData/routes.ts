import { accountExportFileName, closeAccountSchema } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer, perUser, sendJsonText } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { createAccountClosing } from './closeAccount.js';
import type { createAccountExport } from './export.js';

const MINUTE = 60_000;
const limits = {
  // Each export reads every table of the account.
  export: { max: 5, window: MINUTE },
  // The password check counts guesses like sign-ins; this bounds the calls.
  close: { max: 10, window: MINUTE },
};

/** The owner's data: taken away as a file, or erased with the account. */
export const ownerDataRoutes: FastifyPluginAsyncZod<{
  accountExport: ReturnType<typeof createAccountExport>;
  closing: ReturnType<typeof createAccountClosing>;
}> = async (app, { accountExport, closing }) => {
  const tags = ['Users'];

  app.get('/Users/export', { schema: { tags }, config: { auth: 'signedIn', ...perUser(limits.export) } }, async (request, reply) => {
    const { userId } = sessionOf(request);
    const now = new Date();
    const file = await accountExport.build(userId, now);
    reply.header('content-disposition', `attachment; filename="${accountExportFileName(userId, now)}"`).header('cache-control', 'no-store');
    return sendJsonText(reply, JSON.stringify(file, null, 2));
  });

  app.post(
    '/Users/close-account',
    { schema: { tags, body: closeAccountSchema }, config: { auth: 'signedIn', ...perUser(limits.close) } },
    async (request) => {
      await closing.close(sessionOf(request), request.body.password, request.ip);
      return answer(true);
    },
  );
};
