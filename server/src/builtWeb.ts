import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import mime from 'mime/lite';
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
 * What a built file holds, read again when a build replaces it or a file written beside it (`alongside`:
 * its compressed copies, which the build writes after it): their modification times, looked at once a
 * second at most, so a request costs no look at the disk. Null while there is no such file. A read
 * that turns out to have failed calls `forget`: the file is read again at the next look.
 */
export function builtFile<T>(path: string, read: (mtimeMs: number, forget: () => void) => T, alongside: string[] = []): () => T | null {
  let loaded: { version: string; value: T | null } | null = null;
  let checkedAt = -Infinity;
  const modifiedAt = (file: string) => statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  return () => {
    const now = performance.now();
    if (now - checkedAt < RECHECK_MS) return loaded?.value ?? null;
    checkedAt = now;
    const mtimeMs = modifiedAt(path);
    const version = [mtimeMs, ...alongside.map(modifiedAt)].join();
    if (mtimeMs === undefined) loaded = null;
    else if (loaded?.version !== version) {
      const entry: { version: string; value: T | null } = { version, value: null };
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

/** A page or a script in the encodings it can be sent in, each with its own strong ETag; undefined for one it has not. */
export type Copies = (encoding: Encoding) => Copy | undefined;

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
export function compressedCopies(html: string): Copies {
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
export async function compressedOnce(request: FastifyRequest, html: string): Promise<Copies> {
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

/** How a built file goes out: its type, and how long a browser may keep it. */
interface Sending {
  type: string;
  cacheControl: string;
}

/** A page: `no-cache` has the browser ask each time (a deploy, or a changed pet, reaches it at once). */
const asPage: Sending = { type: 'text/html; charset=utf-8', cacheControl: 'no-cache' };

/** Sends the copy in the best encoding the client takes, with its ETag; a client holding the current copy gets 304. */
function sendCopy(request: FastifyRequest, reply: FastifyReply, copies: Copies, sending: Sending, status = 200) {
  const encoding = bestEncoding(request, (e) => copies(e) !== undefined);
  const copy = copies(encoding)!;
  reply.header('cache-control', sending.cacheControl).header('vary', 'accept-encoding').header('etag', copy.etag);
  if (status === 200 && holdsCurrent(request, copy.etag)) return reply.status(304).send();
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.status(status).type(sending.type).send(copy.body);
}

/** Sends the page in the best encoding the client takes; a client holding the current copy gets 304. */
export function sendPage(request: FastifyRequest, reply: FastifyReply, copies: Copies, status = 200) {
  return sendCopy(request, reply, copies, asPage, status);
}

/** A file's bytes; null when there is none (a build may remove it between a look and the read). */
function readIfThere(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** A built file and the build's .br and .gz copies of it, as they are on disk now; null while there is no such file. */
function readBuilt(file: string): Map<Encoding, Copy> | null {
  const copies = new Map<Encoding, Copy>();
  for (const [encoding, path] of [['identity', file], ['br', `${file}.br`], ['gzip', `${file}.gz`]] as const) {
    const body = readIfThere(path);
    if (body) copies.set(encoding, copyOf(body));
  }
  return copies.has('identity') ? copies : null;
}

/** A built file with its copies (`shaped` for its use), held in memory and read again within a second of a build replacing any of them. */
function heldBuilt<T>(file: string, shaped: (copies: Map<Encoding, Copy>) => T): () => T | null {
  return builtFile(
    file,
    () => {
      const copies = readBuilt(file);
      return copies && shaped(copies);
    },
    [`${file}.br`, `${file}.gz`],
  );
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
  const current = heldBuilt(file, (copies) => ({ copies, template: copies.get('identity')!.body.toString('utf8') }));
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

/** Built files' types, the charset named for text (browsers would otherwise guess it). */
function typeOf(name: string): string {
  const type = mime.getType(name) ?? 'application/octet-stream';
  return /^text\/|^application\/(javascript|json)$|\+xml$/.test(type) ? `${type}; charset=utf-8` : type;
}

/** Compressed copies are sent for their file, never on their own. */
const copyName = /\.(br|gz)$/i;

/** Their names change with their content: a browser keeps them a year and never asks again. */
const asAsset = (name: string): Sending => ({ type: typeOf(name), cacheControl: 'public, max-age=31536000, immutable' });

export interface BuiltAssets {
  /** Sends the named file; false when there is no such file. */
  send(name: string, request: FastifyRequest, reply: FastifyReply): boolean;
}

/**
 * The build's scripts and styles (web/dist/assets): each held in memory with the build's .br and .gz
 * copies from the first time it is asked for, so a script costs no file opened (sent from disk by
 * @fastify/static the largest cost the portal 600-820 µs of CPU a request, from memory 170-270, a
 * bare route sending the same bytes 160-190). A file a build adds while the portal runs is found when
 * first asked for; one it replaces is read again within a second, as the index page is; one it removes
 * answers 404 within a second and is forgotten then (until the portal restarts, as a deploy does, a
 * removed file nobody asks for stays held). Only a name the folder lists, spelled as it lists it, is
 * held: a stranger's names (another spelling of one on a file system that ignores case, a folder, a
 * hidden file) leave nothing behind.
 */
export function builtAssets(folder: string): BuiltAssets {
  const held = new Map<string, () => { copies: Map<Encoding, Copy>; sending: Sending } | null>();
  /** Whether the folder lists the name as a file, spelled so: the listing is read only for a name the file system finds. */
  const listed = (name: string) =>
    !copyName.test(name) &&
    !name.startsWith('.') &&
    existsSync(join(folder, name)) &&
    readdirSync(folder, { withFileTypes: true }).some((entry) => entry.isFile() && entry.name === name);
  return {
    send(name, request, reply) {
      let file = held.get(name);
      if (!file) {
        if (!listed(name)) return false;
        const sending = asAsset(name);
        file = heldBuilt(join(folder, name), (copies) => ({ copies, sending }));
        held.set(name, file);
      }
      const built = file();
      // A file the build removed: it is forgotten, and found again should a build bring it back.
      if (!built) held.delete(name);
      else sendCopy(request, reply, (encoding) => built.copies.get(encoding), built.sending);
      return built !== null;
    },
  };
}
