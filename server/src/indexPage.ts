import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { holdsCurrent } from './http.js';

type Encoding = 'br' | 'gzip' | 'identity';

interface Copy {
  body: Buffer;
  etag: string;
}

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
 * The single-page app's index.html, which every screen's address answers: held in memory with the
 * build's .br and .gz copies, so a screen costs no file opened. Read again when the file changes (a
 * build while the portal runs); each copy has its own strong ETag, and `no-cache` has the browser ask
 * each time, so a deploy reaches users at once.
 */
export function indexPageSender(webRoot: string) {
  const file = join(webRoot, 'index.html');
  let loaded: { mtimeMs: number; copies: Partial<Record<Encoding, Copy>> } | null = null;

  function copies() {
    const { mtimeMs } = statSync(file);
    if (loaded?.mtimeMs !== mtimeMs) {
      const read = (path: string, encoding: Encoding): [Encoding, Copy] | [] => {
        if (!existsSync(path)) return [];
        const body = readFileSync(path);
        return [encoding, { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` }];
      };
      const entries = [read(file, 'identity'), read(`${file}.br`, 'br'), read(`${file}.gz`, 'gzip')].filter((e) => e.length > 0);
      loaded = { mtimeMs, copies: Object.fromEntries(entries) };
    }
    return loaded.copies;
  }

  return (request: FastifyRequest, reply: FastifyReply) => {
    const available = copies();
    const accepted = request.headers['accept-encoding'];
    const encoding = (['br', 'gzip'] as const).find((e) => available[e] && takes(accepted, e)) ?? 'identity';
    const copy = available[encoding]!;
    reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').header('etag', copy.etag);
    if (holdsCurrent(request, copy.etag)) return reply.status(304).send();
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.type('text/html; charset=utf-8').send(copy.body);
  };
}
