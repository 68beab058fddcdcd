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

/**
 * helmet's security headers on every page, and the short set of data on every API answer. They depend
 * on the options alone (no CSP nonces), so they are computed once: @fastify/helmet builds helmet and
 * parses the policy anew on each request, which cost the public lookup a tenth of its time. The API's
 * own pages get theirs from a hook of their route, which replaces the data's: asking every request for
 * its route's options would build them anew each time.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, options: HelmetOptions) => {
  const page = helmetHeaders(options);
  const data = dataHeaders(page);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? data : page);
    done();
  });
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
