import {
  addSiteToPetsSchema,
  failure,
  mapTileParams,
  messages,
  placeIdParams,
  placePhotoQuery,
  removeSiteFromPetSchema,
  siteByPlaceSchema,
  siteCreateSchema,
  siteIdParams,
  siteSearchQuery,
} from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MapTiles } from '../../adapters/places/googleTiles.js';
import { answer, perIp, perUser } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { SiteService } from './service.js';

const MINUTE = 60_000;
const limits = {
  /** Each search may be a paid maps call: an owner types a few, a script many. */
  search: { max: 60, window: MINUTE },
  /** Public (an <img> sends no token); a results page shows up to 20 photos. */
  photo: { max: 240, window: MINUTE },
  /** Public too; a map fills with a dozen or two tiles, and every pan or zoom asks for more. */
  tile: { max: 600, window: MINUTE },
};
/** A place's photo (or a map tile) changes seldom; browsers keep it a day instead of asking the maps service again. */
const PHOTO_CACHE = 'public, max-age=86400';

/** `tiles`: Google's map tiles, when the maps show Google's map (see config mapTiles). */
export const siteRoutes: FastifyPluginAsyncZod<{ sites: SiteService; tiles: MapTiles | null }> = async (app, { sites, tiles }) => {
  const tags = ['Sites'];
  const signedIn = { auth: 'signedIn' } as const;

  app.get(
    '/site/search',
    { schema: { tags, querystring: siteSearchQuery }, config: { ...signedIn, ...perUser(limits.search) } },
    async (request) => answer(await sites.search(request.query.query, request.query.next)),
  );

  app.get('/site/photo', { schema: { tags, querystring: placePhotoQuery }, config: perIp(limits.photo) }, async (request, reply) => {
    const photo = await sites.photo(request.query.ref);
    if (!photo) return reply.status(404).send(failure([messages.notFound]));
    return reply.type(photo.contentType).header('cache-control', PHOTO_CACHE).send(photo.body);
  });

  if (tiles) {
    app.get('/site/map-tile/:z/:x/:y', { schema: { tags, params: mapTileParams }, config: perIp(limits.tile) }, async (request, reply) => {
      const { z, x, y } = request.params;
      const tile = await tiles.tile(z, x, y);
      if (!tile) return reply.status(404).send(failure([messages.notFound]));
      return reply.type(tile.contentType).header('cache-control', PHOTO_CACHE).send(tile.body);
    });
  }

  app.get('/site/for-user', { schema: { tags }, config: signedIn }, async (request) => answer(await sites.forUser(sessionOf(request))));

  app.get('/site/sites-for-pet/:id', { schema: { tags, params: siteIdParams }, config: signedIn }, async (request) =>
    answer(await sites.forPet(sessionOf(request), request.params.id)),
  );

  app.get('/site/sites-for-user-pets/:id', { schema: { tags, params: siteIdParams }, config: signedIn }, async (request) =>
    answer(await sites.linksForSite(sessionOf(request), request.params.id)),
  );

  app.get('/site/:id', { schema: { tags, params: siteIdParams }, config: signedIn }, async (request) =>
    answer(await sites.get(sessionOf(request), request.params.id)),
  );

  app.post(
    '/site/ByGoogleId/:placeId',
    { schema: { tags, params: placeIdParams, body: siteByPlaceSchema }, config: signedIn },
    async (request) => answer(await sites.addByPlace(sessionOf(request), request.params.placeId)),
  );

  app.post('/site/create', { schema: { tags, body: siteCreateSchema }, config: signedIn }, async (request) =>
    answer(await sites.create(sessionOf(request), request.body)),
  );

  app.post('/site/add-site-to-pets', { schema: { tags, body: addSiteToPetsSchema }, config: signedIn }, async (request) =>
    answer(await sites.addToPets(sessionOf(request), request.body)),
  );

  app.delete('/site/RemoveFromPet', { schema: { tags, body: removeSiteFromPetSchema }, config: signedIn }, async (request) => {
    await sites.removeFromPet(sessionOf(request), request.body);
    return answer(true);
  });
};
