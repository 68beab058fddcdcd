import { openLookupParams } from '@petreg/contract';
import type { onRequestHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { unauthorized } from '../../errors.js';
import { addressKey, answer, type Limit } from '../../http.js';
import { presentedKey, type ApiKeyGate, type ApiKeyHolder } from './apiKeys.js';
import { openLookupResult, type OpenLookup } from './openLookup.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The holder of the API key the open lookup was called with; null for an anonymous call or a refused key. */
    apiKey: ApiKeyHolder | null;
    /** Why the key the open lookup was called with is refused; null when it was not. */
    apiKeyRefused: string | null;
  }
}

/** An address without a key: a shelter desk's browser stays far below it; a system that asks more gets a key. */
export const anonymousLimit: Limit = { max: 30, window: 60_000 };

/**
 * Any page or system may call the open lookup from a browser. The headers go on every answer of the
 * route (refusals too, so a caller can read why), and on the preflight a key header brings.
 */
const openToAnyOrigin: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, OPTIONS',
  'access-control-allow-headers': 'Authorization, X-Api-Key',
  'access-control-expose-headers': 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
  'access-control-max-age': '86400',
  'cross-origin-resource-policy': 'cross-origin',
};
const openToAll: onRequestHookHandler = (_request, reply, done) => {
  reply.headers(openToAnyOrigin);
  done();
};

const description = `What the registry knows of a microchip number, for universal lookups (AAHA's), shelters, clinics and other registries:
whether it is registered here, when the registration last changed, the registry's 24/7 line and the address of the form that reaches
the owner, and what the number tells of itself (format, manufacturer, test or shared code). Never anything about the owner.
Open to any origin (CORS). Without a key, ${anonymousLimit.max} calls a minute per address; with a key (\`Authorization: Bearer <key>\` or
\`X-Api-Key: <key>\`, issued by the registry's administrators), the key's own limit. An unknown or revoked key is refused (401), and the call counts against the address as one without a key.`;

export const openLookupRoutes: FastifyPluginAsyncZod<{ openLookup: OpenLookup; keys: ApiKeyGate; rateLimitAllowList: readonly string[] }> = async (
  app,
  { openLookup, keys, rateLimitAllowList },
) => {
  app.decorateRequest('apiKey', null);
  app.decorateRequest('apiKeyRefused', null);
  const path = '/public/lookup/:chip';

  app.options(path, { schema: { hide: true }, onRequest: openToAll }, (_request, reply) => reply.status(204).send());

  app.get(
    path,
    {
      schema: {
        tags: ['Open lookup'],
        summary: 'Look up a microchip number (version 1)',
        description,
        params: openLookupParams,
        security: [{}, { apiKeyBearer: [] }, { apiKeyHeader: [] }],
        // The answer is checked against its documented shape on the way out: a field not in it never leaves.
        response: { 200: z.object({ succeeded: z.literal(true), result: openLookupResult, errors: z.array(z.string()) }) },
      },
      // The key is read before the limit is counted (the rate-limit hook comes after these), so a live key counts against its own
      // limit; a refused one counts against the address, as a call without a key, and is answered 401 only once counted, or keys
      // made up anew on every call would be unlimited lookups.
      onRequest: [
        openToAll,
        async (request) => {
          const key = presentedKey(request);
          if (!key) return;
          const verdict = await keys.check(key);
          if ('holder' in verdict) request.apiKey = verdict.holder;
          else request.apiKeyRefused = verdict.refused;
        },
      ],
      preValidation: async (request) => {
        if (request.apiKeyRefused) throw unauthorized(request.apiKeyRefused);
      },
      config: {
        rateLimit: {
          keyGenerator: (request) => (request.apiKey ? `api-key:${request.apiKey.id}` : addressKey(request)),
          max: (request) => (request.apiKey ?? { limit: anonymousLimit }).limit.max,
          timeWindow: (request) => (request.apiKey ?? { limit: anonymousLimit }).limit.window,
          // The allow list exempts addresses; a key is held to the limit it was issued with from every address.
          allowList: (request) => !request.apiKey && rateLimitAllowList.includes(request.ip),
        },
      },
    },
    async (request) => {
      const result = await openLookup.lookup(request.params.chip);
      if (request.apiKey) keys.used(request.apiKey);
      return answer(result);
    },
  );
};
