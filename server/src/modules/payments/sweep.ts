import { and, eq, inArray, isNull, lt } from 'drizzle-orm';
import { chips, pets } from '../../db/schema.js';
import type { PaymentDeps } from './shared.js';

/** Yearly registrations past their expiry stop being registered: the daily sweep. */
export function createSweep({ db, accounts }: PaymentDeps) {
  return {
    async expireLapsedRegistrations(now = new Date()): Promise<number> {
      const owners = await db.transaction(async (tx) => {
        const lapsed = await tx
          .update(chips)
          .set({ isActive: false })
          .where(and(eq(chips.isActive, true), eq(chips.oneTime, false), isNull(chips.removedAt), lt(chips.expirationDate, now)))
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
