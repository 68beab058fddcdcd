import { normalisePhone, type MailKind, type TextKind } from '@petreg/contract';
import { eq, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { byEmail } from '../users/accounts.js';

/**
 * A mail to `recipient` was refused for good: the account with that address has it unproven again
 * (the e-mail confirmation banner asks for it, and a provider's sign-in no longer joins the account on
 * its word), and is asked at the next sweep whether this is still how to reach them. The ask's own
 * bounce asks nothing more, so a dead address is not asked again and again.
 */
export async function noteBouncedEmail(db: Database | Transaction, recipient: string, kind: MailKind): Promise<number[]> {
  const changed = await db
    .update(users)
    .set({
      emailBouncedAt: sql`now()`,
      emailVerifiedAt: null,
      ...(kind === 'contacts-check' ? {} : { contactsCheckDueAt: sql`now()` }),
    })
    .where(byEmail(recipient))
    .returning({ id: users.id });
  return changed.map((user) => user.id);
}

/**
 * A text to `recipient` failed for good (refused by the provider, undelivered, or out of attempts):
 * when it was the account's own number, the owner is asked at the next sweep. A number that answered
 * STOP did not fail; the ask's own failure asks nothing more.
 */
export async function noteFailedText(db: Database, text: { recipient: string; userId: number | null; kind: TextKind }): Promise<void> {
  if (text.userId === null || text.kind === 'contacts-check') return;
  const [owner] = await db.select({ phoneNumber: users.phoneNumber }).from(users).where(eq(users.id, text.userId));
  if (!owner?.phoneNumber || normalisePhone(owner.phoneNumber) !== text.recipient) return;
  await db.update(users).set({ contactsCheckDueAt: sql`now()` }).where(eq(users.id, text.userId));
}
