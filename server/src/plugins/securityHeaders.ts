import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An API route whose answer a browser shows as a page (an e-mail's unsubscribe form): it takes the pages' headers. */
    document?: true;
  }
}

/** The headers helmet sets for these options, each name with its value. */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: () => {},
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * What an answer that is data (JSON, an image) needs: nothing of it may run, be framed or be sniffed
 * as another type. A page's policy and browsing-context headers are a kilobyte that every lookup
 * would carry for nothing.
 */
function dataHeaders(page: Record<string, string>): Record<string, string> {
  const kept = ['strict-transport-security', 'cross-origin-resource-policy', 'x-content-type-options', 'referrer-policy'];
  return {
    ...Object.fromEntries(kept.flatMap((name) => (page[name] ? [[name, page[name]]] : []))),
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
  };
}

export interface SecurityHeaderSets {
  /** helmet's headers for the options: every page, and the API's own pages. */
  page: Record<string, string>;
  /** The short set of every other API answer. */
  data: Record<string, string>;
}

/**
 * The headers for these options. They depend on the options alone (no CSP nonces), so they are computed
 * once: @fastify/helmet builds helmet and parses the policy anew on each request, which cost the public
 * lookup a tenth of its time.
 */
export function securityHeaderSets(options: HelmetOptions): SecurityHeaderSets {
  const page = helmetHeaders(options);
  return { page, data: dataHeaders(page) };
}

/**
 * The pages' headers on every page, the data's on every API answer, chosen by the path alone: asking
 * each request for its route's options would have Fastify build them anew each time.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, { page, data }: SecurityHeaderSets) => {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? data : page);
    done();
  });
});

/**
 * The API's own pages (`config.document`) answer with the pages' headers, their refusals too: a hook of
 * their route, put first. Registered after every plugin that puts a hook of its own first on a route
 * (the session check, the embedded database's write gate), so that it runs before theirs.
 */
export const documentHeadersPlugin = fp(async (app: FastifyInstance, { page, data }: SecurityHeaderSets) => {
  const dataOnly = Object.keys(data).filter((name) => !(name in page));
  const asPage: onRequestHookHandler = (_request, reply, done) => {
    for (const name of dataOnly) reply.removeHeader(name);
    reply.headers(page);
    done();
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.document) route.onRequest = [asPage, ...[route.onRequest ?? []].flat()];
  });
});
