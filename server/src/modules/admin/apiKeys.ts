import { messages, type ApiKeyEntry, type ApiKeyIssue, type ApiKeyPeriod, type IssuedApiKey } from '@petreg/contract';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { recordAudit } from '../../db/audit.js';
import type { Database } from '../../db/client.js';
import { apiKeys, users } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { newApiKey, type ApiKeyGate } from '../public/apiKeys.js';

const issuers = alias(users, 'issuers');
const revokers = alias(users, 'revokers');

const entryColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  requests: apiKeys.requests,
  per: apiKeys.per,
  createdAt: apiKeys.createdAt,
  createdBy: issuers.email,
  usageCount: apiKeys.usageCount,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
  revokedBy: revokers.email,
};

const iso = (value: Date | null) => value && value.toISOString();

function entryOf(row: {
  id: number;
  name: string;
  prefix: string;
  requests: number;
  per: ApiKeyPeriod;
  createdAt: Date;
  createdBy: string | null;
  usageCount: number;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  revokedBy: string | null;
}): ApiKeyEntry {
  return { ...row, createdAt: row.createdAt.toISOString(), lastUsedAt: iso(row.lastUsedAt), revokedAt: iso(row.revokedAt) };
}

export type ApiKeyAdministration = ReturnType<typeof createApiKeyAdministration>;

/** The keys administrators issue to shelters, clinics and registries for the open lookup (admin-api-keys). */
export function createApiKeyAdministration(deps: { db: Database; keys: ApiKeyGate }) {
  const { db, keys } = deps;

  async function entries(id?: number): Promise<ApiKeyEntry[]> {
    const rows = await db
      .select(entryColumns)
      .from(apiKeys)
      .leftJoin(issuers, eq(issuers.id, apiKeys.createdBy))
      .leftJoin(revokers, eq(revokers.id, apiKeys.revokedBy))
      .where(id === undefined ? undefined : eq(apiKeys.id, id))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    return rows.map(entryOf);
  }

  return {
    /** Every key, newest first, with its use so far (this instance's latest uses written first). */
    async list(): Promise<ApiKeyEntry[]> {
      await keys.flush();
      return entries();
    },

    /** A new key: the answer holds the key this once; the database keeps its hash. */
    async issue(session: Session, input: ApiKeyIssue): Promise<IssuedApiKey> {
      const { key, hash, prefix } = newApiKey();
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(apiKeys)
          .values({ name: input.name, keyHash: hash, prefix, requests: input.requests, per: input.per, createdBy: session.userId })
          .returning({ id: apiKeys.id });
        await recordAudit(tx, {
          actorUserId: session.userId,
          action: 'issue',
          entity: 'api_key',
          entityId: row!.id,
          after: { name: input.name, prefix, requests: input.requests, per: input.per },
        });
        return row!.id;
      });
      const [entry] = await entries(id);
      return { entry: entry!, key };
    },

    /** Ends a key for good: every call with it is refused from now on, on every instance (told at commit). */
    async revoke(session: Session, id: number): Promise<ApiKeyEntry> {
      await db.transaction(async (tx) => {
        const [row] = await tx.select({ revokedAt: apiKeys.revokedAt, name: apiKeys.name, prefix: apiKeys.prefix }).from(apiKeys).where(eq(apiKeys.id, id)).for('update');
        if (!row) throw notFound(messages.notFound);
        if (row.revokedAt) throw conflict(messages.apiKeyAlreadyRevoked);
        const revokedAt = new Date();
        await tx
          .update(apiKeys)
          .set({ revokedAt, revokedBy: session.userId })
          .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
        await recordAudit(tx, {
          actorUserId: session.userId,
          action: 'revoke',
          entity: 'api_key',
          entityId: id,
          before: { name: row.name, prefix: row.prefix, revokedAt: null },
          after: { name: row.name, prefix: row.prefix, revokedAt: revokedAt.toISOString() },
        });
      });
      keys.forget();
      await keys.flush();
      const [entry] = await entries(id);
      return entry!;
    },
  };
}
