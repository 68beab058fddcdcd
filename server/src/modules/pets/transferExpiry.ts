import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { mailOutbox, petTransfers, pets, users } from '../../db/schema.js';
import { clockOf, timeAt } from '../../worker/outbox.js';
import { expiredEmails } from './transferEmails.js';

/** Offers expired in one sweep, at most: the next sweep, a minute later, takes the rest. */
const BATCH = 100;

/**
 * The worker's sweep (every minute) of owners' transfer offers left unanswered for 7 days: each is
 * marked expired in the claim itself (rows locked, SKIP LOCKED), so of two workers only one tells
 * anybody, and both sides are told in the same transaction. `time` moves the sweep's clock (tests),
 * as for the outboxes. Answers how many expired.
 */
export async function expirePetTransfers(db: Database, time?: Date | (() => Date)): Promise<number> {
  const clock = clockOf(time);
  return db.transaction(async (tx) => {
    const due = tx
      .select({ id: petTransfers.id })
      .from(petTransfers)
      .where(and(eq(petTransfers.status, 'open'), sql`${petTransfers.expiresAt} <= ${timeAt(clock)}`))
      .orderBy(asc(petTransfers.expiresAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const expired = await tx
      .update(petTransfers)
      .set({ status: 'expired', closedAt: timeAt(clock) })
      .where(and(inArray(petTransfers.id, due), eq(petTransfers.status, 'open')))
      .returning();
    if (expired.length === 0) return 0;
    const parties = await tx
      .select({ id: petTransfers.id, petName: pets.name, fromFirstName: users.firstName, fromEmail: users.email })
      .from(petTransfers)
      .innerJoin(pets, eq(pets.id, petTransfers.petId))
      .innerJoin(users, eq(users.id, petTransfers.fromUserId))
      .where(inArray(petTransfers.id, expired.map((t) => t.id)));
    await tx.insert(mailOutbox).values(
      expired.flatMap((offer) => {
        const { petName, fromFirstName, fromEmail } = parties.find((p) => p.id === offer.id)!;
        const mails = expiredEmails({ petName, fromFirstName, toEmail: offer.toEmail });
        return [
          { recipient: fromEmail, ...mails.owner },
          { recipient: offer.toEmail, ...mails.addressee },
        ];
      }),
    );
    return expired.length;
  });
}
