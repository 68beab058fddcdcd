import { and, asc, eq, inArray, isNull, lt } from 'drizzle-orm';
import { chips, pets } from '../../db/schema.js';
import type { PaymentDeps } from './shared.js';

/** Yearly registrations past their expiry stop being registered: the daily sweep. */
export function createSweep({ db, accounts }: PaymentDeps) {
  return {
    async expireLapsedRegistrations(now = new Date()): Promise<number> {
      const lapsedYearly = and(eq(chips.isActive, true), eq(chips.oneTime, false), isNull(chips.removedAt), lt(chips.expirationDate, now));
      const owners = await db.transaction(async (tx) => {
        const due = await tx.select({ petId: chips.petId }).from(chips).where(lapsedYearly);
        if (due.length === 0) return [];
        // Pets first, then chips: the order a payment's completion and a renewal take, so the sweep
        // cannot deadlock with a renewal arriving as the chip expires. The chip update re-reads the
        // expiry under the lock, so a renewal that committed first keeps its year.
        const petIds = due.map((c) => c.petId);
        await tx.select({ id: pets.id }).from(pets).where(inArray(pets.id, petIds)).orderBy(asc(pets.id)).for('update');
        const lapsed = await tx
          .update(chips)
          .set({ isActive: false })
          .where(and(lapsedYearly, inArray(chips.petId, petIds)))
          .returning({ petId: chips.petId });
        if (lapsed.length === 0) return [];
        return tx
          .update(pets)
          .set({ isActive: false, updatedAt: now })
          .where(inArray(pets.id, lapsed.map((c) => c.petId)))
          .returning({ userId: pets.userId });
      });
      for (const { userId } of owners) accounts.forget(userId);
      return owners.length;
    },
  };
}
