import type { Database } from './client.js';
import { auditLog } from './schema.js';

/** Records an administrator's write: who, what, and the record before and after. */
export async function recordAudit(
  db: Pick<Database, 'insert'>,
  entry: { actorUserId: number; action: string; entity: string; entityId: number | string; before?: unknown; after?: unknown },
): Promise<void> {
  await db.insert(auditLog).values({ ...entry, entityId: String(entry.entityId), before: entry.before ?? null, after: entry.after ?? null });
}
