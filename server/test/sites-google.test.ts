import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { directoryPlaceId, messages, type PublicSettings, type Site, type SiteSearchPage, type SiteWithDetail } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectoryPlaces } from '../src/adapters/places/directory.js';
import { createGooglePlaces } from '../src/adapters/places/google.js';
import { createGoogleMapTiles, keepFor } from '../src/adapters/places/googleTiles.js';
import { sites } from '../src/db/schema.js';
import { call, createTestApp, signUpOwner, type TestContext } from './helpers.js';

const API_KEY = 'test-maps-key-never-shown';
const PHOTO = 'places/ChIJgateway0000000000001/photos/AXCi2Qgateway1';
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);

/** Places as Google's Places API (New) documents them, in full detail; search answers a subset of fields. */
const gateway = {
  id: 'ChIJgateway0000000000001',
  displayName: { text: 'Gateway Animal Hospital', languageCode: 'en' },
  formattedAddress: '1234 Market St, St. Louis, MO 63101, USA',
  addressComponents: [
    { longText: '1234', shortText: '1234', types: ['street_number'], languageCode: 'en-US' },
    { longText: 'Market Street', shortText: 'Market St', types: ['route'], languageCode: 'en' },
    { longText: 'Downtown', shortText: 'Downtown', types: ['neighborhood', 'political'], languageCode: 'en' },
    { longText: 'St. Louis', shortText: 'St. Louis', types: ['locality', 'political'], languageCode: 'en' },
    { longText: 'Missouri', shortText: 'MO', types: ['administrative_area_level_1', 'political'], languageCode: 'en' },
    { longText: 'United States', shortText: 'US', types: ['country', 'political'], languageCode: 'en' },
    { longText: '63101', shortText: '63101', types: ['postal_code'], languageCode: 'en-US' },
  ],
  nationalPhoneNumber: '(314) 555-0100',
  internationalPhoneNumber: '+1 314-555-0100',
  rating: 4.66,
  userRatingCount: 213,
  websiteUri: 'https://gatewayanimal.example.com/',
  photos: [{ name: PHOTO, widthPx: 4032, heightPx: 3024, authorAttributions: [{ displayName: 'A Visitor', uri: 'https://maps.google.com/maps/contrib/1' }] }],
  location: { latitude: 38.6312, longitude: -90.1925 },
  types: ['veterinary_care', 'point_of_interest', 'establishment'],
  regularOpeningHours: {
    openNow: true,
    weekdayDescriptions: [
      'Monday: 8:00 AM – 6:00 PM',
      'Tuesday: 8:00 AM – 6:00 PM',
      'Wednesday: 8:00 AM – 6:00 PM',
      'Thursday: 8:00 AM – 6:00 PM',
      'Friday: 8:00 AM – 5:00 PM',
      'Saturday: 9:00 AM – 12:00 PM',
      'Sunday: Closed',
    ],
  },
  reviews: [
    {
      name: 'places/ChIJgateway0000000000001/reviews/1',
      relativePublishTimeDescription: 'a month ago',
      rating: 5,
      text: { text: 'They took great care of our beagle.', languageCode: 'en' },
      originalText: { text: 'They took great care of our beagle.', languageCode: 'en' },
      authorAttribution: { displayName: 'Jordan P.', uri: 'https://www.google.com/maps/contrib/2', photoUri: 'https://lh3.googleusercontent.com/a/x' },
      publishTime: '2026-10-01T12:00:00Z',
    },
  ],
};
/** A place Google knows by name only: no street, no coordinates, no photo. */
const ridge = {
  id: 'ChIJridge000000000000002',
  displayName: { text: 'Ridge Mobile Vet' },
  formattedAddress: 'Kirkwood, MO 63122, USA',
  addressComponents: [
    { longText: 'Kirkwood', shortText: 'Kirkwood', types: ['locality', 'political'] },
    { longText: 'Missouri', shortText: 'MO', types: ['administrative_area_level_1', 'political'] },
    { longText: '63122', shortText: '63122', types: ['postal_code'] },
  ],
  types: ['veterinary_care'],
};
/** A vet about 240 miles from St. Louis (Kansas City): found on the second page, beyond a ZIP search's 50 miles. */
const farAway = {
  id: 'ChIJfaraway0000000000003',
  displayName: { text: 'Plaza Pet Clinic' },
  formattedAddress: '1 Plaza Dr, Kansas City, MO 64111, USA',
  location: { latitude: 39.0417, longitude: -94.5919 },
  types: ['veterinary_care'],
};
const SECOND_PAGE = 'AeJbb3cSecondPageToken';
const knownPlaces = new Map([gateway, ridge].map((place) => [place.id, place]));

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}
const fake = {
  seen: [] as Seen[],
  /** What the next calls answer instead of the places: Google's documented failures. */
  failure: null as null | 'denied' | 'badKey' | 'broken',
  /** Map Tiles sessions handed out, newest last; tiles are served to the newest only. */
  sessions: [] as string[],
  /** The Cache-Control of the tiles Google answers; none when null. */
  tileCacheControl: null as string | null,
};
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** Google's Map Tiles API: sessions (two weeks long), and road-map tiles up to zoom 3 for the newest session. */
function tilesAnswer(seen: Seen): [number, string, Buffer | string] | null {
  const json = (status: number, body: unknown): [number, string, string] => [status, 'application/json; charset=UTF-8', JSON.stringify(body)];
  if (seen.method === 'POST' && seen.path === '/v1/createSession') {
    if (fake.failure === 'broken') return json(500, googleError(500, 'INTERNAL', 'Internal error encountered.'));
    const session = `session-${fake.sessions.length + 1}`;
    fake.sessions.push(session);
    return json(200, { session, expiry: String(Math.floor(Date.now() / 1000) + 14 * 86400), tileWidth: 256, tileHeight: 256, imageFormat: 'png' });
  }
  const tile = /^\/v1\/2dtiles\/(\d+)\/(\d+)\/(\d+)$/.exec(seen.path);
  if (seen.method !== 'GET' || !tile) return null;
  if (fake.failure === 'broken') return json(500, googleError(500, 'INTERNAL', 'Internal error encountered.'));
  if (seen.query.get('key') !== API_KEY || seen.query.get('session') !== fake.sessions.at(-1)) {
    return json(400, googleError(400, 'INVALID_ARGUMENT', 'The session token is invalid.'));
  }
  if (Number(tile[1]) > 3) return json(404, googleError(404, 'NOT_FOUND', 'Tile not found.'));
  return [200, 'image/png', PNG];
}

/** The headers of Google's answer: a tile's caching rule, when the test gives one. */
const tileHeaders = (contentType: string): Record<string, string> =>
  contentType === 'image/png' && fake.tileCacheControl ? { 'content-type': contentType, 'cache-control': fake.tileCacheControl } : { 'content-type': contentType };

const googleError = (code: number, status: string, message: string, reason?: string) => ({
  error: { code, message, status, ...(reason ? { details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' }] } : {}) },
});

/** Only the fields the mask asks for, as Google answers. */
const masked = (place: Record<string, unknown>, fields: string[]) => Object.fromEntries(Object.entries(place).filter(([key]) => fields.includes(key)));

function googleAnswer(seen: Seen, port: number): [number, unknown] {
  if (fake.failure === 'denied') return [403, googleError(403, 'PERMISSION_DENIED', 'Places API (New) has not been used in project 1 before or it is disabled.')];
  if (fake.failure === 'badKey') return [400, googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID')];
  if (fake.failure === 'broken') return [500, googleError(500, 'INTERNAL', 'Internal error encountered.')];
  const mask = String(seen.headers['x-goog-fieldmask'] ?? '').split(',');
  if (seen.method === 'POST' && seen.path === '/v1/places:searchText') {
    const fields = mask.filter((f) => f.startsWith('places.')).map((f) => f.slice('places.'.length));
    const nameless = { id: 'ChIJnameless', formattedAddress: 'Somewhere' };
    // Two pages: the second is asked for with the first's token; a token Google never gave is refused.
    const pageToken = (seen.body as { pageToken?: string }).pageToken;
    if (pageToken === undefined) return [200, { places: [gateway, nameless, ridge].map((place) => masked(place, fields)), nextPageToken: SECOND_PAGE }];
    if (pageToken === SECOND_PAGE) return [200, { places: [masked(farAway, fields)] }];
    return [400, googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.')];
  }
  const media = /^\/v1\/(places\/[\w-]+\/photos\/[\w-]+)\/media$/.exec(seen.path);
  if (seen.method === 'GET' && media) {
    if (media[1] !== PHOTO) return [404, googleError(404, 'NOT_FOUND', 'The photo resource was not found.')];
    return [200, { name: `${PHOTO}/media`, photoUri: `http://127.0.0.1:${port}/photo-bytes/gateway1` }];
  }
  const details = /^\/v1\/places\/([\w-]+)$/.exec(seen.path);
  if (seen.method === 'GET' && details) {
    const place = knownPlaces.get(details[1]!);
    if (!place) return [404, googleError(404, 'NOT_FOUND', `Place '${details[1]}' was not found.`)];
    return [200, masked(place, mask)];
  }
  return [404, googleError(404, 'NOT_FOUND', `unknown ${seen.method} ${seen.path}`)];
}

let server: Server;
let googleUrl: string;
let ctx: TestContext;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://localhost');
      const seen = { method: req.method!, path: url.pathname, query: url.searchParams, headers: req.headers, body: raw ? JSON.parse(raw) : null };
      fake.seen.push(seen);
      const tile = tilesAnswer(seen);
      if (tile) {
        res.writeHead(tile[0], tileHeaders(tile[1])).end(tile[2]);
        return;
      }
      if (url.pathname === '/photo-bytes/gateway1') {
        res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
        return;
      }
      const [status, answer] = googleAnswer(seen, (server.address() as AddressInfo).port);
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  googleUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ctx = await createTestApp({ env: { GOOGLE_MAPS_API_KEY: API_KEY, GOOGLE_PLACES_URL: googleUrl, GOOGLE_TILES_URL: googleUrl } });
});

afterAll(async () => {
  await ctx.close();
  server.close();
});

const lastSeen = (path: string) => fake.seen.filter((s) => s.path === path).at(-1)!;

async function owner() {
  return (await signUpOwner(ctx.app)).token;
}

describe('vet search through Google Places', () => {
  it('asks Text Search for veterinary care with the key and a field mask, and maps its places', async () => {
    fake.failure = null;
    const { status, body } = await call<SiteSearchPage>(ctx.app, 'GET', `site/search?query=${encodeURIComponent('vet near 63101')}`, { token: await owner() });
    expect(status).toBe(200);

    const asked = lastSeen('/v1/places:searchText');
    expect(asked.method).toBe('POST');
    expect(asked.headers['x-goog-api-key']).toBe(API_KEY);
    expect(asked.headers['content-type']).toBe('application/json');
    expect(String(asked.headers['x-goog-fieldmask']).split(',').sort()).toEqual(
      [
        ...['id', 'displayName', 'formattedAddress', 'addressComponents', 'nationalPhoneNumber', 'rating', 'userRatingCount', 'websiteUri', 'photos', 'location'].map((f) => `places.${f}`),
        'nextPageToken',
      ].sort(),
    );
    expect(asked.body).toEqual({ textQuery: 'vet near 63101', includedType: 'veterinary_care', strictTypeFiltering: true, pageSize: 20 });

    // The nameless place is left out; the photo goes through the portal.
    expect(body.result!.next).toBe(SECOND_PAGE);
    expect(body.result!.near).toBeNull();
    expect(body.result!.results).toEqual([
      {
        googlePlaceId: gateway.id,
        name: 'Gateway Animal Hospital',
        address1: '1234 Market St',
        city: 'St. Louis',
        state: 'MO',
        zip: '63101',
        phoneNumber: '+13145550100',
        rating: 4.7,
        reviewsCount: 213,
        url: 'https://gatewayanimal.example.com/',
        imageUrl: `/api/v2/site/photo?ref=${encodeURIComponent(PHOTO)}`,
        latitude: 38.6312,
        longitude: -90.1925,
      },
      {
        googlePlaceId: ridge.id,
        name: 'Ridge Mobile Vet',
        address1: 'Kirkwood',
        city: 'Kirkwood',
        state: 'MO',
        zip: '63122',
        phoneNumber: null,
        rating: null,
        reviewsCount: null,
        url: null,
        imageUrl: null,
        latitude: null,
        longitude: null,
      },
    ]);
    expect(JSON.stringify(body)).not.toContain(API_KEY);
  });

  it("shows more with Google's page token, and refuses a token Google never gave", async () => {
    fake.failure = null;
    const token = await owner();
    const more = await call<SiteSearchPage>(ctx.app, 'GET', `site/search?query=vet&next=${SECOND_PAGE}`, { token });
    expect(more.status).toBe(200);
    expect(lastSeen('/v1/places:searchText').body).toMatchObject({ textQuery: 'vet', pageToken: SECOND_PAGE });
    expect(more.body.result).toEqual({ results: [expect.objectContaining({ googlePlaceId: farAway.id, name: 'Plaza Pet Clinic' })], next: null, near: null });

    const forged = await call(ctx.app, 'GET', 'site/search?query=vet&next=forged', { token });
    expect(forged.status).toBe(400);
    expect(forged.body.errors).toEqual([messages.invalidRequest]);
  });

  it('by a ZIP code asks for the nearest places around its centre and keeps those within 50 miles, with their distance', async () => {
    fake.failure = null;
    const token = await owner();
    const { status, body } = await call<SiteSearchPage>(ctx.app, 'GET', 'site/search?query=63101', { token });
    expect(status).toBe(200);
    const asked = lastSeen('/v1/places:searchText').body as Record<string, unknown>;
    expect(asked).toMatchObject({
      textQuery: '63101',
      rankPreference: 'DISTANCE',
      locationBias: { circle: { center: { latitude: expect.closeTo(38.63, 1), longitude: expect.closeTo(-90.19, 1) }, radius: 50_000 } },
    });
    // Ridge has no coordinates: no distance to show, so not among the nearest.
    expect(body.result!.results).toEqual([expect.objectContaining({ googlePlaceId: gateway.id, distanceMiles: expect.any(Number) })]);
    expect(body.result!.results[0]!.distanceMiles!).toBeLessThan(2);
    expect(body.result!.near).toMatchObject({ zip: '63101', place: 'Saint Louis, MO 63101', radiusMiles: 50 });
    // Kansas City lies beyond 50 miles.
    const second = await call<SiteSearchPage>(ctx.app, 'GET', `site/search?query=63101&next=${SECOND_PAGE}`, { token });
    expect(second.body.result).toMatchObject({ results: [], next: null });
  });

  it.each([
    ['denied', 'an unauthorised project (403)'],
    ['badKey', 'an invalid key (400 API_KEY_INVALID)'],
    ['broken', 'a failing Google (500)'],
  ] as const)('answers 502 "vet search is not available" for %s: %s', async (failure, _case) => {
    fake.failure = failure;
    try {
      const { status, body } = await call(ctx.app, 'GET', 'site/search?query=vet', { token: await owner() });
      expect(status).toBe(502);
      expect(body).toEqual({ succeeded: false, result: null, errors: [messages.vetSearchUnavailable] });
    } finally {
      fake.failure = null;
    }
  });

  it('fails with 502 "vet search is not available" when Google cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const logged: object[] = [];
    const places = createGooglePlaces({ apiKey: API_KEY, url }, { directory: createDirectoryPlaces(ctx.database.db), log: { error: (details) => logged.push(details) } });
    await expect(places.search({ query: 'vet', near: null })).rejects.toMatchObject({ statusCode: 502, errors: [messages.vetSearchUnavailable] });
    await expect(places.details(gateway.id)).rejects.toMatchObject({ statusCode: 502 });
    expect(logged).toHaveLength(2);
  });

  it("logs Google's own words on a failure, never the key", async () => {
    const logged: object[] = [];
    const places = createGooglePlaces(
      { apiKey: API_KEY, url: googleUrl },
      { directory: createDirectoryPlaces(ctx.database.db), log: { error: (details) => logged.push(details) } },
    );
    fake.failure = 'denied';
    try {
      await expect(places.search({ query: 'vet', near: null })).rejects.toMatchObject({ statusCode: 502, errors: [messages.vetSearchUnavailable] });
    } finally {
      fake.failure = null;
    }
    expect(logged).toEqual([expect.objectContaining({ status: 403, googleStatus: 'PERMISSION_DENIED' })]);
    expect(JSON.stringify(logged)).not.toContain(API_KEY);
  });
});

describe('adding a Google place as a vet', () => {
  const byPlace = async (token: string, placeId: string) => call<Site>(ctx.app, 'POST', `site/ByGoogleId/${placeId}`, { token });

  it('reads Place Details once, keeps the place as a site, and reuses it for every later owner', async () => {
    const token = await owner();
    const before = fake.seen.length;
    const { status, body } = await byPlace(token, gateway.id);
    expect(status).toBe(200);
    const asked = fake.seen.slice(before).filter((s) => s.path === `/v1/places/${gateway.id}`);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.headers['x-goog-api-key']).toBe(API_KEY);
    expect(String(asked[0]!.headers['x-goog-fieldmask']).split(',')).toEqual(
      expect.arrayContaining(['id', 'displayName', 'location', 'regularOpeningHours', 'reviews', 'types', 'photos', 'websiteUri']),
    );
    expect(body.result).toEqual({
      id: expect.any(Number),
      name: 'Gateway Animal Hospital',
      practiceType: 'Veterinary Care',
      logo: null,
      googlePlaceId: gateway.id,
      isActive: true,
      phoneNumber: '+13145550100',
      address1: '1234 Market St',
      city: 'St. Louis',
      state: 'MO',
      zipCode: '63101',
      url: 'https://gatewayanimal.example.com/',
      imageUrl: `/api/v2/site/photo?ref=${encodeURIComponent(PHOTO)}`,
      rating: 4.7,
      reviewsCount: 213,
    });
    const [row] = await ctx.database.db.select().from(sites).where(eq(sites.id, body.result!.id));
    expect(row).toMatchObject({ source: 'places', latitude: 38.6312, longitude: -90.1925, receivesAlerts: false, email: null });

    const page = await call<SiteWithDetail>(ctx.app, 'GET', `site/${body.result!.id}`, { token });
    expect(page.body.result!.placeDetail).toEqual({
      address: '1234 Market St, St. Louis, MO 63101',
      latitude: 38.6312,
      longitude: -90.1925,
      phone: '+13145550100',
      rating: 4.7,
      website: 'https://gatewayanimal.example.com/',
      weekdayText: gateway.regularOpeningHours.weekdayDescriptions,
      types: ['veterinary_care', 'point_of_interest', 'establishment'],
      reviews: [{ author: 'Jordan P.', rating: 5, text: 'They took great care of our beagle.', relativeTime: 'a month ago' }],
    });

    const again = fake.seen.length;
    const reused = await byPlace(await owner(), gateway.id);
    expect(reused.body.result!.id).toBe(body.result!.id);
    expect(fake.seen.slice(again).filter((s) => s.path.startsWith('/v1/places/'))).toEqual([]);
  });

  it("places a site Google gives no coordinates at its ZIP code's centre, and many owners adding it at once share one site", async () => {
    const tokens = await Promise.all([owner(), owner(), owner(), owner()]);
    const answers = await Promise.all(tokens.map((token) => byPlace(token, ridge.id)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.result!.id)).size).toBe(1);
    const rows = await ctx.database.db.select().from(sites).where(eq(sites.googlePlaceId, ridge.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ latitude: 38.5781, longitude: -90.4256, placeDetail: expect.objectContaining({ latitude: null, weekdayText: [] }) });
  });

  it('answers 400 "Unable to create site for provided place." for a place Google does not know', async () => {
    const { status, body } = await byPlace(await owner(), 'ChIJnoSuchPlace');
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.siteCreateFailed]);
  });

  it('answers 502, creating nothing, when Google fails', async () => {
    fake.failure = 'broken';
    try {
      const { status, body } = await byPlace(await owner(), 'ChIJwhileBroken');
      expect(status).toBe(502);
      expect(body.errors).toEqual([messages.vetSearchUnavailable]);
    } finally {
      fake.failure = null;
    }
    expect(await ctx.database.db.$count(sites, eq(sites.googlePlaceId, 'ChIJwhileBroken'))).toBe(0);
  });

  it('still answers directory place ids from the directory', async () => {
    const [site] = await ctx.database.db.insert(sites).values({ name: 'Directory Clinic', source: 'import' }).returning();
    const before = fake.seen.length;
    const { status, body } = await byPlace(await owner(), directoryPlaceId(site!.id));
    expect(status).toBe(200);
    expect(body.result!.id).toBe(site!.id);
    expect(fake.seen.length).toBe(before);
  });
});

describe('GET site/photo through Google', () => {
  it('fetches the photo at most 400×300 with the key, then the image without it, and lets the browser keep it', async () => {
    const before = fake.seen.length;
    const response = await ctx.app.inject({ method: 'GET', url: `/api/v2/site/photo?ref=${encodeURIComponent(PHOTO)}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    expect(response.rawPayload).toEqual(JPEG);

    const [media, image] = fake.seen.slice(before);
    expect(media!.path).toBe(`/v1/${PHOTO}/media`);
    expect(Object.fromEntries(media!.query)).toEqual({ maxWidthPx: '400', maxHeightPx: '300', skipHttpRedirect: 'true' });
    expect(media!.headers['x-goog-api-key']).toBe(API_KEY);
    expect(image!.path).toBe('/photo-bytes/gateway1');
    expect(image!.headers['x-goog-api-key']).toBeUndefined();
  });

  it('asks Google for nothing but a photo name, whoever calls it', async () => {
    const places = createGooglePlaces({ apiKey: API_KEY, url: googleUrl }, { directory: createDirectoryPlaces(ctx.database.db), log: { error: () => {} } });
    const before = fake.seen.length;
    for (const ref of ['places:searchText', `${PHOTO}/../../places:searchText`, `places/x/photos/y?key=z`]) expect(await places.photo(ref)).toBeNull();
    expect(fake.seen.length).toBe(before);
  });

  it('answers 404 for a photo Google does not have, 400 for what is no photo name, 502 when Google fails', async () => {
    const missing = await ctx.app.inject({ method: 'GET', url: `/api/v2/site/photo?ref=${encodeURIComponent('places/ChIJgateway0000000000001/photos/gone')}` });
    expect(missing.statusCode).toBe(404);
    const before = fake.seen.length;
    const refused = await ctx.app.inject({ method: 'GET', url: `/api/v2/site/photo?ref=${encodeURIComponent('places:searchText')}` });
    expect(refused.statusCode).toBe(400);
    expect(fake.seen.length).toBe(before);
    fake.failure = 'broken';
    try {
      const failing = await ctx.app.inject({ method: 'GET', url: `/api/v2/site/photo?ref=${encodeURIComponent(PHOTO)}` });
      expect(failing.statusCode).toBe(502);
      expect(failing.json().errors).toEqual([messages.vetSearchUnavailable]);
    } finally {
      fake.failure = null;
    }
  });
});

describe("the maps' tiles through Google", () => {
  const tile = (path: string) => ctx.app.inject({ method: 'GET', url: `/api/v2/site/map-tile/${path}` });

  it("points the maps at the portal's own tile address, credited to Google", async () => {
    const { body } = await call<PublicSettings>(ctx.app, 'GET', 'utilities/settings');
    expect(body.result!.mapTiles).toEqual({ url: '/api/v2/site/map-tile/{z}/{x}/{y}', attribution: 'Map data &copy; Google' });
  });

  it('serves road-map tiles with one session for many, to anyone, and lets the browser keep them; the key never leaves', async () => {
    fake.failure = null;
    const sessionsBefore = fake.seen.filter((s) => s.path === '/v1/createSession').length;
    for (const path of ['2/1/3', '3/7/0']) {
      const answer = await tile(path);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('image/png');
      expect(answer.headers['cache-control']).toBe('public, max-age=86400');
      expect(answer.rawPayload).toEqual(PNG);
    }
    const created = fake.seen.filter((s) => s.path === '/v1/createSession');
    expect(created.length - sessionsBefore).toBeLessThanOrEqual(1);
    expect(created.at(-1)!.query.get('key')).toBe(API_KEY);
    expect(created.at(-1)!.body).toEqual({ mapType: 'roadmap', language: 'en-US', region: 'US' });
    expect(lastSeen('/v1/2dtiles/3/7/0').query.get('session')).toBe(fake.sessions.at(-1));
  });

  it('asks for a new session when Google refuses the one it kept', async () => {
    fake.failure = null;
    expect((await tile('1/0/0')).statusCode).toBe(200);
    // Google ends the session early: the next tile is refused once, then served under a new session.
    fake.sessions.push('session-elsewhere');
    const answer = await tile('1/1/1');
    expect(answer.statusCode).toBe(200);
    expect(fake.sessions.at(-1)).not.toBe('session-elsewhere');
    expect(lastSeen('/v1/2dtiles/1/1/1').query.get('session')).toBe(fake.sessions.at(-1));
  });

  it('answers 404 where Google has no tile, 400 for a tile outside the zoom\'s grid, 502 when Google fails', async () => {
    fake.failure = null;
    expect((await tile('5/0/0')).statusCode).toBe(404);
    for (const path of ['2/4/0', '2/0/4', '23/0/0', '-1/0/0', 'a/0/0', '1/0.5/0']) {
      const answer = await tile(path);
      expect(answer.statusCode, path).toBe(400);
      expect(answer.json().errors).toEqual([messages.invalidRequest]);
    }
    fake.failure = 'broken';
    try {
      expect((await tile('1/0/1')).statusCode).toBe(502);
    } finally {
      fake.failure = null;
    }
  });
});

describe("the maps' tiles kept in memory", () => {
  const tile = (path: string) => ctx.app.inject({ method: 'GET', url: `/api/v2/site/map-tile/${path}` });
  /** How many times Google was asked for this tile. */
  const asked = (path: string) => fake.seen.filter((s) => s.path === `/v1/2dtiles/${path}`).length;
  const logged: object[] = [];
  const log = { error: (details: object) => logged.push(details) };

  it('serves a tile asked for again from memory, and asks Google once for each different tile', async () => {
    fake.failure = null;
    for (const path of ['2/2/2', '2/2/1', '2/2/2', '2/2/1', '2/2/2']) {
      const answer = await tile(path);
      expect(answer.statusCode, path).toBe(200);
      expect(answer.headers['content-type']).toBe('image/png');
      expect(answer.rawPayload).toEqual(PNG);
    }
    expect(asked('2/2/2')).toBe(1);
    expect(asked('2/2/1')).toBe(1);
  });

  it("keeps no failure: a tile Google failed to give is asked for again, then kept; a missing tile is asked again", async () => {
    fake.failure = 'broken';
    try {
      expect((await tile('3/5/5')).statusCode).toBe(502);
      expect((await tile('3/5/5')).statusCode).toBe(502);
    } finally {
      fake.failure = null;
    }
    expect(asked('3/5/5')).toBe(2);
    for (let i = 0; i < 2; i++) expect((await tile('3/5/5')).rawPayload).toEqual(PNG);
    expect(asked('3/5/5')).toBe(3);
    for (let i = 0; i < 2; i++) expect((await tile('4/3/3')).statusCode).toBe(404);
    expect(asked('4/3/3')).toBe(2);
  });

  it('forgets the least recently used tile past its count', async () => {
    fake.failure = null;
    const tiles = createGoogleMapTiles({ apiKey: API_KEY, url: googleUrl }, log, { maxTiles: 2, maxBytes: 1_000_000 });
    const before = { a: asked('1/0/0'), b: asked('1/0/1'), c: asked('1/1/0') };
    await tiles.tile(1, 0, 0);
    await tiles.tile(1, 0, 1);
    // Used again, 1/0/0 is kept while 1/0/1 goes for 1/1/0.
    expect(await tiles.tile(1, 0, 0)).toEqual({ body: PNG, contentType: 'image/png' });
    await tiles.tile(1, 1, 0);
    await tiles.tile(1, 0, 0);
    expect(asked('1/0/0') - before.a).toBe(1);
    await tiles.tile(1, 0, 1);
    expect(asked('1/0/1') - before.b).toBe(2);
    expect(asked('1/1/0') - before.c).toBe(1);
    expect(logged).toEqual([]);
  });

  it('forgets the least recently used tile past its bytes', async () => {
    fake.failure = null;
    const tiles = createGoogleMapTiles({ apiKey: API_KEY, url: googleUrl }, log, { maxTiles: 100, maxBytes: PNG.length * 2 });
    const before = { a: asked('2/3/0'), b: asked('2/3/1'), c: asked('2/3/2') };
    for (const y of [0, 1, 2, 1, 2]) await tiles.tile(2, 3, y);
    expect([asked('2/3/0') - before.a, asked('2/3/1') - before.b, asked('2/3/2') - before.c]).toEqual([1, 1, 1]);
    await tiles.tile(2, 3, 0);
    expect(asked('2/3/0') - before.a).toBe(2);
  });

  it("keeps a tile as long as Google's Cache-Control says, a day when it says nothing, and not at all when it forbids it", async () => {
    fake.failure = null;
    let now = 1_000_000;
    const tiles = createGoogleMapTiles({ apiKey: API_KEY, url: googleUrl }, log, { maxTiles: 10, maxBytes: 1_000_000, now: () => now });
    try {
      fake.tileCacheControl = 'public, max-age=60';
      const before = asked('3/0/3');
      await tiles.tile(3, 0, 3);
      now += 59_000;
      await tiles.tile(3, 0, 3);
      expect(asked('3/0/3') - before).toBe(1);
      now += 2_000;
      await tiles.tile(3, 0, 3);
      expect(asked('3/0/3') - before).toBe(2);

      fake.tileCacheControl = 'no-store';
      const uncached = asked('3/0/4');
      await tiles.tile(3, 0, 4);
      await tiles.tile(3, 0, 4);
      expect(asked('3/0/4') - uncached).toBe(2);

      fake.tileCacheControl = null;
      const daily = asked('3/0/5');
      await tiles.tile(3, 0, 5);
      now += 86_399_000;
      await tiles.tile(3, 0, 5);
      expect(asked('3/0/5') - daily).toBe(1);
      now += 2_000;
      await tiles.tile(3, 0, 5);
      expect(asked('3/0/5') - daily).toBe(2);
    } finally {
      fake.tileCacheControl = null;
    }
  });

  it('reads how long a shared cache may keep an answer', () => {
    expect(keepFor('public, max-age=3600')).toBe(3_600_000);
    expect(keepFor('max-age=3600, s-maxage=60')).toBe(60_000);
    expect(keepFor('public, max-age="120"')).toBe(120_000);
    expect(keepFor(null)).toBe(86_400_000);
    expect(keepFor('public')).toBe(86_400_000);
    for (const forbidding of ['no-store', 'private, max-age=600', 'no-cache', 'max-age=0', 'max-age=soon']) expect(keepFor(forbidding), forbidding).toBe(0);
  });
});
