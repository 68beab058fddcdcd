import { messages, type AdminUser, type ProtectedRecordUpdate, type RecordProtection } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { recordAudit } from '../../db/audit.js';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import type { UserService } from '../users/service.js';
import type { AdminRecords } from './records.js';

const setter = alias(users, 'protection_setter');

/** The account's protected-record flag as the administrator's record shows it: when, who and why; null when not set. */
export async function recordProtectionOf(db: Database, userId: number): Promise<RecordProtection | null> {
  const [row] = await db
    .select({
      since: users.recordProtectedAt,
      reason: users.recordProtectedReason,
      by: { firstName: setter.firstName, lastName: setter.lastName, email: setter.email },
    })
    .from(users)
    .leftJoin(setter, eq(setter.id, users.recordProtectedBy))
    .where(eq(users.id, userId));
  if (!row?.since || row.reason === null) return null;
  const name = row.by ? `${row.by.firstName} ${row.by.lastName}`.trim() || row.by.email : '';
  return { since: row.since.toISOString(), by: name, reason: row.reason };
}

export type ProtectedRecords = ReturnType<typeof createProtectedRecords>;

/**
 * Sets or clears the protected-record flag of an account (issue 20). While set, the public profile,
 * the short link's page and the alert e-mails show nothing of the owner; finders reach them through the
 * found-report relay. The pages kept in memory are dropped at commit by the trigger of migration 0026.
 */
export function createProtectedRecords(deps: { db: Database; accounts: UserService; records: AdminRecords }) {
  const { db, accounts, records } = deps;
  return {
    async set(session: Session, userId: number, input: ProtectedRecordUpdate): Promise<AdminUser> {
      await db.transaction(async (tx) => {
        const [current] = await tx
          .select({ at: users.recordProtectedAt, by: users.recordProtectedBy, reason: users.recordProtectedReason })
          .from(users)
          .where(eq(users.id, userId))
          .for('update');
        if (!current) throw notFound(messages.notFound);
        // Set twice, the record would no longer say who protected it first and why.
        if (input.protect && current.at) throw conflict(messages.recordAlreadyProtected);
        if (!input.protect && !current.at) throw conflict(messages.recordNotProtected);
        const after = input.protect
          ? { recordProtectedAt: new Date(), recordProtectedBy: session.userId, recordProtectedReason: input.reason }
          : { recordProtectedAt: null, recordProtectedBy: null, recordProtectedReason: null };
        await tx.update(users).set(after).where(eq(users.id, userId));
        await recordAudit(tx, {
          actorUserId: session.userId,
          action: input.protect ? 'protect' : 'unprotect',
          entity: 'user',
          entityId: userId,
          before: { recordProtectedAt: current.at, recordProtectedBy: current.by, recordProtectedReason: current.reason },
          // Clearing keeps its own reason only here: the account's columns are emptied.
          after: { ...after, reason: input.reason },
        });
      });
      // The owner's profile says whether the record is protected.
      accounts.forget(userId);
      return records.getUser(userId);
    },
  };
}
