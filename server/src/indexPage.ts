import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from 'node:zlib';
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

/** How often a request checks whether a build replaced a built file. */
const RECHECK_MS = 1000;

/**
 * What a built file holds, read again when a build replaces it (its modification time, looked at once
 * a second at most, so a request costs no look at the disk); null while there is no such file. A read
 * that turns out to have failed calls `forget`: the file is read again at the next look.
 */
export function builtFile<T>(path: string, read: (mtimeMs: number, forget: () => void) => T): () => T | null {
  let loaded: { mtimeMs: number; value: T | null } | null = null;
  let checkedAt = -Infinity;
  return () => {
    const now = performance.now();
    if (now - checkedAt < RECHECK_MS) return loaded?.value ?? null;
    checkedAt = now;
    const mtimeMs = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined) loaded = null;
    else if (loaded?.mtimeMs !== mtimeMs) {
      const entry: { mtimeMs: number; value: T | null } = { mtimeMs, value: null };
      loaded = entry;
      entry.value = read(mtimeMs, () => {
        if (loaded === entry) loaded = null;
      });
    }
    return loaded?.value ?? null;
  };
}

interface Copy {
  body: Buffer;
  etag: string;
}

/** A page in the encodings it can be sent in, each with its own strong ETag; undefined for one it has not. */
export type PageCopies = (encoding: Encoding) => Copy | undefined;

const copyOf = (body: Buffer): Copy => ({ body, etag: contentTag(body) });

/** Brotli and gzip cheap enough to run for every answer (brotli's 9 takes ten times as long as 4, its 11 a hundred). */
const compressOnce = {
  br: (body: Buffer) => promisify(brotliCompress)(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } }),
  gzip: (body: Buffer) => promisify(gzip)(body, { level: 6 }),
};

/**
 * A page kept and sent again and again, compressed for each encoding when first asked for in it, at the
 * strongest settings worth their time once.
 */
export function compressedCopies(html: string): PageCopies {
  const identity = copyOf(Buffer.from(html));
  const made = new Map<Encoding, Copy>([['identity', identity]]);
  const compress = {
    br: (body: Buffer) => brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }),
    gzip: (body: Buffer) => gzipSync(body, { level: 9 }),
  };
  return (encoding) => {
    let copy = made.get(encoding);
    if (!copy && encoding !== 'identity') made.set(encoding, (copy = copyOf(compress[encoding](identity.body))));
    return copy;
  };
}

/**
 * A page made for one answer only (nothing keeps it): compressed in the one encoding the client takes,
 * cheaply and off the main thread, as the portal's other answers are.
 */
export async function compressedOnce(request: FastifyRequest, html: string): Promise<PageCopies> {
  const identity = copyOf(Buffer.from(html));
  const encoding = bestEncoding(request, () => true);
  const copy = encoding === 'identity' ? identity : copyOf(await compressOnce[encoding](identity.body));
  return (asked) => (asked === 'identity' ? identity : asked === encoding ? copy : undefined);
}

/** The best encoding the client takes of those the page has. */
function bestEncoding(request: FastifyRequest, has: (encoding: Encoding) => boolean): Encoding {
  const accepted = request.headers['accept-encoding'];
  return (['br', 'gzip'] as const).find((e) => takes(accepted, e) && has(e)) ?? 'identity';
}

/**
 * Sends the page in the best encoding the client takes. `no-cache` has the browser ask each time (a
 * deploy, or a changed pet, reaches it at once); a client holding the current copy gets 304.
 */
export function sendPage(request: FastifyRequest, reply: FastifyReply, copies: PageCopies, status = 200) {
  const encoding = bestEncoding(request, (e) => copies(e) !== undefined);
  const copy = copies(encoding)!;
  reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').header('etag', copy.etag);
  if (status === 200 && holdsCurrent(request, copy.etag)) return reply.status(304).send();
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.status(status).type('text/html; charset=utf-8').send(copy.body);
}

export interface IndexPage {
  /** Sends the page; false when there is none to send. */
  send(request: FastifyRequest, reply: FastifyReply): boolean;
  /** The page's HTML, the frame of the pages rendered on the server; null when there is none. */
  template(): string | null;
}

/**
 * The single-page app's index.html, which every screen's address answers: held in memory with the
 * build's .br and .gz copies, so a screen costs no file opened. A build while the portal runs is
 * noticed within a second and read again. Without an index.html (a build under way) a screen answers
 * 404, as any missing file does. `name`: another page of the build, held the same way (finder.html, the
 * frame of the finder's pages rendered on the server).
 */
export function builtIndexPage(webRoot: string, name = 'index.html'): IndexPage {
  const file = join(webRoot, name);
  const current = builtFile(file, () => {
    const copies = new Map<Encoding, Copy>();
    for (const [encoding, path] of [['identity', file], ['br', `${file}.br`], ['gzip', `${file}.gz`]] as const) {
      if (existsSync(path)) copies.set(encoding, copyOf(readFileSync(path)));
    }
    const page = copies.get('identity');
    return page ? { copies, template: page.body.toString('utf8') } : null;
  });
  return {
    send(request, reply) {
      const page = current();
      if (!page) return false;
      sendPage(request, reply, (encoding) => page.copies.get(encoding));
      return true;
    },
    template: () => current()?.template ?? null,
  };
}
