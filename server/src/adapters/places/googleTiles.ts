import { messages } from '@petreg/contract';
import { z } from 'zod';
import { AppError, loggable } from '../../errors.js';
import type { PlacePhoto, PlacesLog } from './index.js';

/** How long a tile may take before the map shows a gap instead. */
const TIMEOUT_MS = 10_000;
/** A session is renewed this long before Google says it ends, so no tile is asked for with a stale one. */
const RENEW_EARLY_MS = 5 * 60_000;

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
export function createGoogleMapTiles(google: { apiKey: string; url: string }, log: PlacesLog): MapTiles {
  let session: { token: string; renewAt: number } | null = null;

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

  return {
    async tile(zoom, x, y) {
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
      return { body: Buffer.from(await response.arrayBuffer()), contentType };
    },
  };
}
