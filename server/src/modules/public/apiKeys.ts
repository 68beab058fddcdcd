import { createHash, randomBytes } from 'node:crypto';
import { apiKeyPeriods, messages } from '@petreg/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../../db/client.js';
import { apiKeys } from '../../db/schema.js';
import { loggable } from '../../errors.js';
import type { Limit } from '../../http.js';
import { cacheForgottenByChannel } from '../../notifiedCache.js';
import { RecentCache } from '../../recent.js';

/** Every key starts so, which tells a key pasted in the wrong place (and secret scanners) what it is. */
const keyPrefix = 'prk_';
/** Characters of a key kept in clear to tell keys apart in the administrators' list. */
const shownCharacters = 12;

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** A new key: 256 random bits. Only its hash is stored; the key itself is shown once. */
export function newApiKey() {
  const key = `${keyPrefix}${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, shownCharacters) };
}

/** The key a caller sends: `X-Api-Key: <key>` or `Authorization: Bearer <key>`; null when none. */
export function presentedKey(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const authorization = request.headers.authorization;
  if (authorization?.startsWith('Bearer ')) return authorization.slice(7).trim() || null;
  return null;
}

export interface ApiKeyHolder {
  id: number;
  limit: Limit;
}

/** A live key's holder, or the words refusing a key unknown or revoked. */
export type ApiKeyVerdict = { holder: ApiKeyHolder } | { refused: string };

/**
 * The channel the triggers of migration 0032_api_key_notify notify at commit: the hash of a key revoked,
 * limited anew or removed ('' for all).
 */
export const apiKeyCheckChannel = 'api_key_check';
/**
 * How long a checked key is trusted without asking the database again. Every instance drops a check when
 * the database notifies a write that changes the key, so this only bounds a change no trigger sees.
 */
const CHECK_TTL_MS = 60_000;
/** How long a key found unknown or revoked is refused without asking again: neither ever becomes live. */
const REFUSAL_TTL_MS = 5000;
/** Uses are counted in memory and added to the keys' rows this often, so a lookup costs no write. */
const FLUSH_MS = 5000;

export type ApiKeyGate = Awaited<ReturnType<typeof createApiKeyGate>>;

/** Checks the keys the open lookup is called with, and counts their use. */
export async function createApiKeyGate(deps: { database: Pick<DatabaseHandle, 'db' | 'listen'>; log: Pick<FastifyBaseLogger, 'warn'> }) {
  const { db } = deps.database;
  const holders = await cacheForgottenByChannel<ApiKeyHolder>(deps.database, deps.log, {
    channel: apiKeyCheckChannel,
    ttlMs: CHECK_TTL_MS,
    max: 10_000,
    meanwhile: 'cannot listen for revoked API keys: every call with a key checks it in the database meanwhile',
  });
  // Refusals are remembered apart, and fewer: keys made up by the thousand never push a live key out.
  const refusals = new RecentCache<string, string>(REFUSAL_TTL_MS, 1_000);
  const uses = new Map<number, { count: number; lastUsedAt: Date }>();

  async function verdictOf(hash: string): Promise<ApiKeyVerdict> {
    const [row] = await db
      .select({ id: apiKeys.id, requests: apiKeys.requests, per: apiKeys.per, revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, hash));
    if (!row) return { refused: messages.apiKeyUnknown };
    if (row.revokedAt) return { refused: messages.apiKeyRevoked };
    return { holder: { id: row.id, limit: { max: row.requests, window: apiKeyPeriods[row.per] } } };
  }

  /** Adds the uses counted so far to the keys' rows; what cannot be written now is kept for the next time. */
  async function flush(): Promise<void> {
    const pending = [...uses];
    uses.clear();
    for (const [id, use] of pending) {
      try {
        await db
          .update(apiKeys)
          .set({
            usageCount: sql`${apiKeys.usageCount} + ${use.count}`,
            lastUsedAt: sql`greatest(${apiKeys.lastUsedAt}, ${use.lastUsedAt.toISOString()}::timestamptz)`,
          })
          .where(eq(apiKeys.id, id));
      } catch (error) {
        count(id, use.count, use.lastUsedAt);
        deps.log.warn({ err: loggable(error) }, 'cannot record the use of API keys yet: kept for the next try');
      }
    }
  }

  function count(id: number, n: number, at: Date) {
    const use = uses.get(id);
    if (!use) uses.set(id, { count: n, lastUsedAt: at });
    else {
      use.count += n;
      if (at > use.lastUsedAt) use.lastUsedAt = at;
    }
  }

  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();

  return {
    /** The holder of a live key; a key unknown or revoked is refused in words saying which. */
    async check(key: string): Promise<ApiKeyVerdict> {
      const hash = hashApiKey(key);
      const holder = await holders.get(hash);
      if (holder) return { holder };
      const refused = refusals.get(hash);
      if (refused) return { refused };
      const ticket = holders.ticket();
      const verdict = await verdictOf(hash);
      if ('holder' in verdict) holders.remember(ticket, hash, verdict.holder);
      else refusals.set(hash, verdict.refused);
      return verdict;
    },

    /** One lookup answered with the key. */
    used(holder: ApiKeyHolder): void {
      count(holder.id, 1, new Date());
    },

    flush,

    /** A key was revoked here: no check made before it is trusted any longer (other instances hear it from the database). */
    forget(): void {
      holders.forget(null);
    },

    /** Whether every change to a key is heard now (part of the readiness check's "listener"). */
    listening: () => holders.subscription!.live(),

    async close(): Promise<void> {
      clearInterval(timer);
      await holders.subscription!.close();
      await flush();
    },
  };
}
