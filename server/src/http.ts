import { createHash } from 'node:crypto';
import { failure, imageDataUrlMax, messages, ok, type Succeeded } from '@petreg/contract';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ServedFile } from './adapters/storage/index.js';
import { AppError } from './errors.js';

/** Answers a successful call in the envelope. */
export const answer = <T>(result: T): Succeeded<T> => ok(result);

/** Sends JSON already written as text: Fastify sends a string with a JSON content type as it is. */
export const sendJsonText = (reply: FastifyReply, text: string) => reply.type('application/json; charset=utf-8').send(text);

/** The envelope's JSON text of each kept result, written once. */
const keptAnswers = new WeakMap<object, string>();

/**
 * Sends the envelope of a result kept in memory and never changed, only replaced (a user object), as
 * text written on its first call: every page load asks for the user object, and serialising it again
 * each time was about 3 µs of the 74 a kept current-user took under perf. The bytes are those Fastify
 * would send. The text lives as long as its object (a user object of the largest settings: 16 KB more).
 */
export function sendKeptAnswer(reply: FastifyReply, result: object) {
  let text = keptAnswers.get(result);
  if (text === undefined) keptAnswers.set(result, (text = JSON.stringify(answer(result))));
  return sendJsonText(reply, text);
}

export interface Limit {
  max: number;
  /** Milliseconds. */
  window: number;
}

/**
 * Body limits, checked before a byte is parsed, so an oversized body costs nothing. Every JSON
 * route but those taking a photo gets `jsonBodyLimit`: its largest form (user settings: 8 KB of settings and 50 shortcuts) is under 16 KB.
 */
export const jsonBodyLimit = 64 * 1024;
/** The routes that take a photo: the largest image as a data URL, plus the form around it. */
export const withImageBodyLimit = imageDataUrlMax + jsonBodyLimit;
/** The payment provider's webhook: its events are the provider's, larger than our forms. */
export const webhookBodyLimit = 1024 * 1024;

/**
 * Serves a stored image: public, under a random name that never changes, so cached for good; or a
 * redirect to the bucket's signed address for it, kept only while that address works.
 */
export function sendImage(reply: FastifyReply, image: ServedFile | null) {
  if (!image) return reply.status(404).send(failure([messages.notFound]));
  if ('location' in image) return reply.header('cache-control', `private, max-age=${image.maxAgeSeconds}`).redirect(image.location, 302);
  if (image.length !== undefined) reply.header('content-length', image.length);
  return reply.type('image/jpeg').header('cache-control', 'public, max-age=31536000, immutable').send(image.body);
}

/** The methods that carry no body to read and write nothing. */
const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a route answers reads only (its methods, as an onRoute hook sees them). */
export const readsOnly = (route: { method: string | string[] }) => [route.method].flat().every((method) => readMethods.has(method));

/**
 * What an address's limits are counted by, as @fastify/rate-limit's own default: an IPv6 address
 * counts with its whole /64, which a single host may hold.
 */
export const addressKey = (request: FastifyRequest) => normalizeIP(request.ip);

/**
 * Per-IP limit of a route, declared in its `config`: counted by the plugin's own key, the address as
 * `addressKey` gives it, which the plugin computes without a turn of the microtask queue (a key
 * generator of ours is awaited on every request, the public lookups first).
 */
export const perIp = (limit: Limit) => ({ rateLimit: { max: limit.max, timeWindow: limit.window } });

/**
 * Per-account limit of a signed-in route, declared in its `config` beside `auth`: the session is
 * read before the route's limit is counted, so one account is held to it from every address.
 */
export const perUser = (limit: Limit) => ({
  rateLimit: {
    max: limit.max,
    timeWindow: limit.window,
    keyGenerator: (request: FastifyRequest) => (request.session ? `user:${request.session.userId}` : addressKey(request)),
  },
});

/**
 * A second limit keyed by the e-mail in the body or query, so one account cannot be hammered
 * from many addresses. Runs after validation, when the e-mail is known to be well-formed.
 */
export function perEmail(app: FastifyInstance, name: string, limit: Limit): preHandlerAsyncHookHandler {
  const check = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.window,
    keyGenerator: (request: FastifyRequest) => {
      const source = (request.body ?? request.query) as { email?: string } | undefined;
      return `${name}:${(source?.email ?? '').toLowerCase()}`;
    },
  });
  return async (request, reply) => {
    const verdict = await check(request);
    if (verdict.isAllowed || !verdict.isExceeded) return;
    // As the plugin's own refusals say: when the window is over.
    reply.header('retry-after', verdict.ttlInSeconds);
    throw new AppError(429, [messages.tooManyRequests]);
  };
}

/**
 * An answer the same for everyone until the process restarts: its JSON text and an ETag, made once.
 * The ETag is weak: @fastify/compress sends the same answer brotli, gzip or plain, bytes that differ.
 */
export interface FixedJson {
  text: string;
  etag: string;
}

/** A strong entity tag naming these bytes (or text): the same content, the same tag, on every instance. */
export const contentTag = (content: string | Buffer) => `"${createHash('sha256').update(content).digest('base64url').slice(0, 32)}"`;

/** Computes the answer on first use (again after a failure) and keeps it. */
export function fixedJson(compute: () => Promise<unknown>): () => Promise<FixedJson> {
  let made: Promise<FixedJson> | undefined;
  return () =>
    (made ??= compute().then(
      (value) => {
        const text = JSON.stringify(value);
        return { text, etag: `W/${contentTag(text)}` };
      },
      (error: unknown) => {
        made = undefined;
        throw error;
      },
    ));
}

/** Whether the request's If-None-Match names the ETag: the client holds the current copy. */
export function holdsCurrent(request: FastifyRequest, etag: string): boolean {
  const held = request.headers['if-none-match'];
  // Compared weakly (RFC 9110, 13.1.2): the client only asks whether its copy is current.
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return Boolean(held && (held.trim() === '*' || held.split(',').some((tag) => opaque(tag) === opaque(etag))));
}

/** Sends the fixed answer, or 304 with no body to a client whose If-None-Match names it. */
export function sendFixedJson(request: FastifyRequest, reply: FastifyReply, answer: FixedJson, cacheControl: string) {
  reply.header('etag', answer.etag).header('cache-control', cacheControl).header('vary', 'accept-encoding');
  if (holdsCurrent(request, answer.etag)) return reply.status(304).send();
  return sendJsonText(reply, answer.text);
}
