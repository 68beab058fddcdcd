import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentTag, holdsCurrent } from './http.js';

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

/** How often a screen's request checks whether a build replaced index.html. */
const RECHECK_MS = 1000;

interface Copy {
  body: Buffer;
  etag: string;
}

/**
 * The single-page app's index.html, which every screen's address answers: held in memory with the
 * build's .br and .gz copies, so a screen costs no file opened. A build while the portal runs is
 * noticed within a second (the file's modification time) and read again; each copy has its own strong
 * ETag, and `no-cache` has the browser ask each time, so a deploy reaches users at once. Without an
 * index.html (a build under way) a screen answers 404, as any missing file does.
 */
export function indexPageSender(webRoot: string) {
  const file = join(webRoot, 'index.html');
  let loaded: { mtimeMs: number; copies: Map<Encoding, Copy> } | null = null;
  let checkedAt = -Infinity;

  function current(): Map<Encoding, Copy> | null {
    const now = performance.now();
    if (now - checkedAt < RECHECK_MS) return loaded?.copies ?? null;
    checkedAt = now;
    const mtimeMs = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined) loaded = null;
    else if (loaded?.mtimeMs !== mtimeMs) {
      const copies = new Map<Encoding, Copy>();
      for (const [encoding, path] of [['identity', file], ['br', `${file}.br`], ['gzip', `${file}.gz`]] as const) {
        if (!existsSync(path)) continue;
        const body = readFileSync(path);
        copies.set(encoding, { body, etag: contentTag(body) });
      }
      loaded = copies.has('identity') ? { mtimeMs, copies } : null;
    }
    return loaded?.copies ?? null;
  }

  /** Sends the page; false when there is none to send. */
  return (request: FastifyRequest, reply: FastifyReply): boolean => {
    const copies = current();
    if (!copies) return false;
    const accepted = request.headers['accept-encoding'];
    const encoding = (['br', 'gzip'] as const).find((e) => copies.has(e) && takes(accepted, e)) ?? 'identity';
    const copy = copies.get(encoding)!;
    reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').header('etag', copy.etag);
    if (holdsCurrent(request, copy.etag)) reply.status(304).send();
    else {
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      reply.type('text/html; charset=utf-8').send(copy.body);
    }
    return true;
  };
}
