import { messages } from '@petreg/contract';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { AppError, loggable } from '../../errors.js';
import type { PlacePhoto, PlacesLog } from './index.js';

/** How long a tile may take before the map shows a gap instead. */
const TIMEOUT_MS = 10_000;
/** A session is renewed this long before Google says it ends, so no tile is asked for with a stale one. */
const RENEW_EARLY_MS = 5 * 60_000;

/** How long a tile is kept when Google's answer does not say. */
const DEFAULT_KEEP_MS = 86_400_000;

/**
 * The tiles one process keeps, so that maps opened again and again over the same town do not ask
 * Google (which bills by tile) each time. Bounded by count and by bytes; `now` is the cache's clock.
 */
export interface TileCacheOptions {
  maxTiles: number;
  maxBytes: number;
  now?: () => number;
}
const DEFAULT_TILE_CACHE: TileCacheOptions = { maxTiles: 500, maxBytes: 20 * 1024 * 1024 };

/**
 * How long a shared cache may keep Google's answer, by its Cache-Control (s-maxage, else max-age; a day
 * when it says neither); 0 when it may not be kept.
 */
export function keepFor(cacheControl: string | null): number {
  const directives = new Map(
    (cacheControl ?? '').split(',').map((directive) => {
      const [name = '', value = ''] = directive.split('=').map((part) => part.trim());
      return [name.toLowerCase(), value.replace(/^"|"$/g, '')];
    }),
  );
  if (['no-store', 'no-cache', 'private'].some((name) => directives.has(name))) return 0;
  const seconds = directives.get('s-maxage') ?? directives.get('max-age');
  if (seconds === undefined) return DEFAULT_KEEP_MS;
  return /^\d+$/.test(seconds) ? Number(seconds) * 1000 : 0;
}

const sessionAnswer = z.object({ session: z.string().min(1), expiry: z.coerce.number() });

/** The vet screens' map tiles, when the portal shows Google's map. */
export interface MapTiles {
  /** A 256-pixel tile of the road map; null when Google has none there (beyond the world's edge). */
  tile(zoom: number, x: number, y: number): Promise<PlacePhoto | null>;
}

/**
 * Google's Map Tiles API (2D road map) through the portal, as place photos are: the key stays on the
 * server, and the browser asks the portal (GET site/map-tile/{z}/{x}/{y}). Google hands out a
 * session token (valid about two weeks) that every tile request names; one is kept per process and
 * renewed before it ends or when Google refuses it.
 */
export function createGoogleMapTiles(google: { apiKey: string; url: string }, log: PlacesLog, cacheOptions = DEFAULT_TILE_CACHE): MapTiles {
  let session: { token: string; renewAt: number } | null = null;
  const { maxTiles, maxBytes, now } = cacheOptions;
  const kept = new LRUCache<string, PlacePhoto>({
    max: maxTiles,
    maxSize: maxBytes,
    sizeCalculation: (tile) => Math.max(1, tile.body.length),
    ttl: DEFAULT_KEEP_MS,
    // The clock read at each look-up, not remembered for a millisecond: a few tiles a second cost nothing to time.
    ttlResolution: 0,
    ...(now && { perf: { now } }),
  });

  const unavailable = (details: object) => {
    log.error(details, 'Google Map Tiles call failed');
    return new AppError(502, [messages.vetSearchUnavailable]);
  };

  async function request(url: string, init?: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw unavailable({ path: new URL(url).pathname, err: loggable(error) });
    }
  }

  async function sessionToken(): Promise<string> {
    if (session && Date.now() < session.renewAt) return session.token;
    const response = await request(`${google.url}/v1/createSession?key=${encodeURIComponent(google.apiKey)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ mapType: 'roadmap', language: 'en-US', region: 'US' }),
    });
    const answer = sessionAnswer.safeParse(await response.json().catch(() => null));
    if (!response.ok || !answer.success) throw unavailable({ path: '/v1/createSession', status: response.status });
    session = { token: answer.data.session, renewAt: answer.data.expiry * 1000 - RENEW_EARLY_MS };
    return session.token;
  }

  async function fetchTile(zoom: number, x: number, y: number): Promise<Response> {
    const query = new URLSearchParams({ session: await sessionToken(), key: google.apiKey });
    return request(`${google.url}/v1/2dtiles/${zoom}/${x}/${y}?${query}`);
  }

  /** The tile from Google and how long it may be kept; null where Google has none. */
  async function askGoogle(zoom: number, x: number, y: number): Promise<{ tile: PlacePhoto; keepMs: number } | null> {
    let response = await fetchTile(zoom, x, y);
    // A session Google no longer takes (ended early, or another key's): one new session, one more try.
    if (response.status === 400 || response.status === 401) {
      session = null;
      response = await fetchTile(zoom, x, y);
    }
    if (response.status === 404) return null;
    const contentType = response.headers.get('content-type') ?? '';
    if (!response.ok || !contentType.startsWith('image/')) {
      throw unavailable({ path: '/v1/2dtiles/{z}/{x}/{y}', status: response.status, contentType });
    }
    return { tile: { body: Buffer.from(await response.arrayBuffer()), contentType }, keepMs: keepFor(response.headers.get('cache-control')) };
  }

  return {
    async tile(zoom, x, y) {
      const key = `${zoom}/${x}/${y}`;
      const cached = kept.get(key);
      if (cached) return cached;
      // Only tiles are kept: a failure has thrown, and where Google has none it is asked again.
      const answer = await askGoogle(zoom, x, y);
      if (answer && answer.keepMs > 0) kept.set(key, answer.tile, { ttl: answer.keepMs });
      return answer?.tile ?? null;
    },
  };
}
