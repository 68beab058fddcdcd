import { and, asc, eq, inArray, isNull, lt } from 'drizzle-orm';
import { chips, pets, users } from '../../db/schema.js';
import { clockOf, timeAt } from '../../worker/outbox.js';
import { queueReminders, type DueReminder } from '../reminders/claims.js';
import { coverLapsedEmail } from '../reminders/emails.js';
import type { PaymentDeps } from './shared.js';

/** Yearly registrations past their expiry stop being registered: the daily sweep. */
export function createSweep({ db, accounts, publicUrl }: PaymentDeps) {
  return {
    /**
     * Ends the yearly registrations past their expiry on the sweep's clock (`time` moves it, in tests),
     * and tells each owner in the same transaction: the notice that cover lapsed, sent once per plan
     * period, and never for a pet that was already switched off or removed, or to a closed account.
     */
    async expireLapsedRegistrations(time?: Date | (() => Date)): Promise<number> {
      const clock = clockOf(time);
      const lapsedYearly = and(eq(chips.isActive, true), eq(chips.oneTime, false), isNull(chips.removedAt), lt(chips.expirationDate, timeAt(clock)));
      const owners = await db.transaction(async (tx) => {
        const due = await tx.select({ petId: chips.petId }).from(chips).where(lapsedYearly);
        if (due.length === 0) return [];
        // Pets first, then chips: the order a payment's completion and a renewal take, so the sweep
        // cannot deadlock with a renewal arriving as the chip expires. The chip update re-reads the
        // expiry under the lock, so a renewal that committed first keeps its year.
        const petIds = due.map((c) => c.petId);
        const before = await tx
          .select({ pet: { id: pets.id, name: pets.name, isActive: pets.isActive, deletedAt: pets.deletedAt }, owner: users })
          .from(pets)
          .innerJoin(users, eq(users.id, pets.userId))
          .where(inArray(pets.id, petIds))
          .orderBy(asc(pets.id))
          .for('update', { of: pets });
        const lapsed = await tx
          .update(chips)
          .set({ isActive: false })
          .where(and(lapsedYearly, inArray(chips.petId, petIds)))
          .returning({ petId: chips.petId, endedAt: chips.expirationDate });
        if (lapsed.length === 0) return [];
        const notices: DueReminder[] = lapsed.flatMap(({ petId, endedAt }) => {
          const { pet, owner } = before.find((row) => row.pet.id === petId)!;
          if (!pet.isActive || pet.deletedAt || !owner.isActive) return [];
          const period = endedAt!.toISOString().slice(0, 10);
          const mail = coverLapsedEmail({ firstName: owner.firstName, petId, petName: pet.name, endedAt: endedAt! }, { publicUrl });
          return [{ petId, userId: owner.id, kind: 'cover-lapsed' as const, period, recipient: owner.email, mail }];
        });
        await queueReminders(tx, notices);
        return tx
          .update(pets)
          .set({ isActive: false, updatedAt: new Date() })
          .where(inArray(pets.id, lapsed.map((c) => c.petId)))
          .returning({ userId: pets.userId });
      });
      for (const { userId } of owners) accounts.forget(userId);
      return owners.length;
    },
  };
}
