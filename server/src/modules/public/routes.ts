import { microchipLookupSchema, publicIdParams } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer, perIp } from '../../http.js';
import type { PublicService } from './service.js';

const MINUTE = 60_000;
/**
 * No sign-in here, so these limits are what stops one address from walking through chip numbers,
 * profile ids or short codes. A finder or a shelter desk stays far below them.
 */
export const publicLimits = {
  lookup: { max: 30, window: MINUTE },
  profile: { max: 60, window: MINUTE },
  shortLink: { max: 60, window: MINUTE },
};

/** The lookup's and the short link's answers stay far under the compression threshold: no compression hook runs for them. */
const small = { compress: false } as const;

/** An answer memory kept goes out at once, with no promise for Fastify to wait on. */
const answered = <T>(found: T | Promise<T>) => (found instanceof Promise ? found.then(answer) : answer(found));

export const publicRoutes: FastifyPluginAsyncZod<{ publicPages: PublicService }> = async (app, { publicPages }) => {
  const tags = ['Public'];

  app.get(
    '/utilities/microchip-lookup',
    { schema: { tags, querystring: microchipLookupSchema }, config: perIp(publicLimits.lookup), ...small },
    (request) => answered(publicPages.lookup(request.query.id)),
  );

  app.get('/pet/pet-profiles/:id', { schema: { tags, params: publicIdParams }, config: perIp(publicLimits.profile) }, (request) =>
    answered(publicPages.profile(request.params.id)),
  );

  app.get(
    '/pet/short-url-details/:id',
    { schema: { tags, params: publicIdParams }, config: perIp(publicLimits.shortLink), ...small },
    (request) => answered(publicPages.shortLinkTarget(request.params.id)),
  );
};
