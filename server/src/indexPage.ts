import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { holdsCurrent } from './http.js';

type Encoding = 'br' | 'gzip' | 'identity';

/** Whether the Accept-Encoding header takes the encoding (named, and not with q=0). */
function takes(acceptEncoding: string | undefined, encoding: Encoding): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(',').some((part) => {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    if (name!.toLowerCase() !== encoding) return false;
    const q = params.find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

/**
 * The single-page app's index.html, which every screen's address answers: read at start with the
 * build's .br and .gz copies, as the built assets' routes are (a new build is served from a restart),
 * so a screen costs no file opened. Each copy has its own strong ETag, and `no-cache` has the browser
 * ask each time, so a deploy reaches users at once.
 */
export function indexPageSender(webRoot: string) {
  const file = join(webRoot, 'index.html');
  const copies = new Map<Encoding, { body: Buffer; etag: string }>();
  for (const [encoding, path] of [['identity', file], ['br', `${file}.br`], ['gzip', `${file}.gz`]] as const) {
    if (!existsSync(path)) continue;
    const body = readFileSync(path);
    copies.set(encoding, { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` });
  }

  return (request: FastifyRequest, reply: FastifyReply) => {
    const accepted = request.headers['accept-encoding'];
    const encoding = (['br', 'gzip'] as const).find((e) => copies.has(e) && takes(accepted, e)) ?? 'identity';
    const copy = copies.get(encoding)!;
    reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').header('etag', copy.etag);
    if (holdsCurrent(request, copy.etag)) return reply.status(304).send();
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.type('text/html; charset=utf-8').send(copy.body);
  };
}
