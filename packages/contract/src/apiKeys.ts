/**
 * Keys to the open lookup (GET public/lookup/{chip}) that administrators issue to shelters, clinics
 * and other registries (admin-api-keys): each key with its own limit, counted as it is used.
 */
import { z } from 'zod';
import { idParam, requestObject, textField } from './fields.js';
import { messages } from './messages.js';

/** The window a key's limit counts in. */
export const apiKeyPeriods = { minute: 60_000, hour: 3_600_000 } as const;
export type ApiKeyPeriod = keyof typeof apiKeyPeriods;

/** Most requests a key may be given in its window: a universal lookup's busiest hours stay far below. */
export const apiKeyMaxRequests = 100_000;

/** POST admin/api-keys: who holds the key and how much it may ask. */
export const apiKeyIssueSchema = requestObject({
  name: textField(100, messages.apiKeyNameTooLong, messages.apiKeyNameRequired)
    .trim()
    .min(1, { error: messages.apiKeyNameRequired }),
  requests: z.coerce
    .number({ error: messages.apiKeyLimitInvalid })
    .int({ error: messages.apiKeyLimitInvalid })
    .min(1, { error: messages.apiKeyLimitInvalid })
    .max(apiKeyMaxRequests, { error: messages.apiKeyLimitInvalid }),
  per: z.enum(Object.keys(apiKeyPeriods) as [ApiKeyPeriod, ...ApiKeyPeriod[]], { error: messages.apiKeyLimitInvalid }),
});
export type ApiKeyIssueInput = z.input<typeof apiKeyIssueSchema>;
export type ApiKeyIssue = z.output<typeof apiKeyIssueSchema>;

/** POST admin/api-keys/{id}/revoke. */
export const apiKeyParams = requestObject({ id: idParam() });

/** A key as the administrators' list shows it: never the key itself, only its first characters. */
export interface ApiKeyEntry {
  id: number;
  name: string;
  /** The key's first characters, to tell keys apart. */
  prefix: string;
  requests: number;
  per: ApiKeyPeriod;
  createdAt: string;
  /** The administrator who issued it (e-mail); null once that account is gone. */
  createdBy: string | null;
  /** Lookups answered with the key. */
  usageCount: number;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
}

/** The answer of an issue: the key itself, shown this once and stored only as its hash. */
export interface IssuedApiKey {
  entry: ApiKeyEntry;
  key: string;
}
