import { paths } from '@petreg/contract';
import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { mailOutbox, users } from '../../db/schema.js';
import { clockOf, timeAt, type Clock } from '../../worker/outbox.js';
import { queueTexts } from '../texts/outbox.js';
import { confirmLink, contactsConfirmedAt } from './ownerCheck.js';
import { contactCheckEmail, contactCheckText, type CheckReason } from './ownerCheckMessages.js';

export interface OwnerCheckSettings {
  publicUrl: string;
  secret: string;
  registryName: string;
  /** CONTACT_RECONFIRM_MONTHS. */
  reconfirmMonths: number;
}

/** Owners asked in one sweep, at most: the next sweep takes the rest. */
const BATCH = 200;

/**
 * Claims the owners due an ask: a live owner's account whose contacts were neither confirmed nor asked
 * about for `reconfirmMonths` on the sweep's clock, or one a failed message marked. Each is marked
 * asked in the claim itself (rows locked, SKIP LOCKED), so of two workers sweeping at once only one
 * asks, and an owner is asked once per period however often the sweep runs. The moment is kept to the
 * millisecond, as the links name it; the due marker and the bounce are read before they are cleared (why the owner is asked).
 */
async function claimDue(tx: Transaction, months: number, clock: Clock) {
  const due = await tx
    .select({
      id: users.id,
      firstName: users.firstName,
      email: users.email,
      phoneNumber: users.phoneNumber,
      phoneVerifiedAt: users.phoneVerifiedAt,
      dueAt: users.contactsCheckDueAt,
      emailBouncedAt: users.emailBouncedAt,
    })
    .from(users)
    .where(
      and(
        eq(users.isActive, true),
        isNull(users.signUpAbandonedAt),
        sql`'customer' = any(${users.roles})`,
        or(
          isNotNull(users.contactsCheckDueAt),
          sql`greatest(${contactsConfirmedAt}, ${users.contactsAskedAt}) <= ${timeAt(clock)} - make_interval(months => ${months})`,
        ),
      ),
    )
    .orderBy(asc(users.id))
    .limit(BATCH)
    .for('update', { skipLocked: true });
  if (due.length === 0) return [];
  const asked = await tx
    .update(users)
    .set({ contactsAskedAt: sql`date_trunc('milliseconds', ${timeAt(clock)})`, contactsCheckDueAt: null })
    .where(inArray(users.id, due.map((owner) => owner.id)))
    .returning({ id: users.id, askedAt: users.contactsAskedAt });
  return due.map((owner) => ({ ...owner, askedAt: asked.find((row) => row.id === owner.id)!.askedAt! }));
}

/** A failed message marked the owner: a bounce when the address bounced since, else a text that failed. */
function reasonOf(owner: { dueAt: Date | null; emailBouncedAt: Date | null }): CheckReason {
  if (owner.dueAt === null) return 'periodic';
  return owner.emailBouncedAt && owner.emailBouncedAt >= owner.dueAt ? 'bounced' : 'text-failed';
}

/**
 * The worker's sweep of "Is this still how we reach you?": each owner due is e-mailed, and texted on a
 * verified mobile, with a link that confirms in one click and one to the profile. The messages go
 * through the outboxes in the claim's transaction, so an owner is asked once, or not at all. `time`
 * moves the sweep's clock (tests), as for the outboxes.
 */
export async function askOwnersToConfirmContacts(db: Database, settings: OwnerCheckSettings, time?: Date | (() => Date)): Promise<{ asked: number }> {
  const clock = clockOf(time);
  return db.transaction(async (tx) => {
    const owners = await claimDue(tx, settings.reconfirmMonths, clock);
    if (owners.length === 0) return { asked: 0 };
    const profileLink = `${settings.publicUrl}${paths.clientProfile}`;
    const mails = owners.map((owner) => {
      const phoneNumber = owner.phoneVerifiedAt ? owner.phoneNumber : null;
      const message = { firstName: owner.firstName, email: owner.email, phoneNumber, reason: reasonOf(owner), profileLink };
      return { recipient: owner.email, ...contactCheckEmail({ ...message, confirmLink: confirmLink(settings, owner, owner.askedAt, 'email') }) };
    });
    await tx.insert(mailOutbox).values(mails);
    const texts = owners.flatMap((owner) => {
      if (!owner.phoneVerifiedAt || !owner.phoneNumber) return [];
      const message = { firstName: owner.firstName, email: owner.email, phoneNumber: owner.phoneNumber, reason: reasonOf(owner), profileLink };
      const body = contactCheckText({ ...message, confirmLink: confirmLink(settings, owner, owner.askedAt, 'sms') }, settings.registryName);
      return [{ to: owner.phoneNumber, kind: 'contacts-check' as const, body, userId: owner.id }];
    });
    await queueTexts(tx, texts);
    return { asked: owners.length };
  });
}
