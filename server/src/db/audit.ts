import type { Database } from './client.js';
import { auditLog } from './schema.js';

export interface AuditEntry {
  actorUserId: number;
  action: string;
  entity: string;
  entityId: number | string;
  before?: unknown;
  after?: unknown;
}

/** Records an administrator's write: who, what, and the record before and after. */
export async function recordAudit(db: Pick<Database, 'insert'>, entry: AuditEntry): Promise<void> {
  await recordAudits(db, [entry]);
}

/** Records many writes of one action (a file's rows) in one statement. */
export async function recordAudits(db: Pick<Database, 'insert'>, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insert(auditLog)
    .values(entries.map((entry) => ({ ...entry, entityId: String(entry.entityId), before: entry.before ?? null, after: entry.after ?? null })));
}
