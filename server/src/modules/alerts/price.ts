import { alertPlanKey, type AlertPrices } from '@petreg/contract';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { chips, pets, plans } from '../../db/schema.js';
import type { Session } from '../../plugins/auth.js';
import { hasActiveCover } from '../payments/shared.js';
import type { AlertDeps } from './shared.js';

/** What an alert costs the signed-in owner, told before the form is filled: its price, and which of their pets send theirs free. */
export function createAlertPrice({ db }: AlertDeps) {
  return {
    async alertPrices(session: Session): Promise<AlertPrices> {
      const [price] = await db.select().from(plans).where(eq(plans.planKey, alertPlanKey));
      const owned = await db
        .select({ petId: pets.id, chip: chips })
        .from(pets)
        .innerJoin(chips, and(eq(chips.petId, pets.id), isNull(chips.removedAt)))
        .where(and(eq(pets.userId, session.userId), isNull(pets.deletedAt)))
        .orderBy(asc(chips.id));
      // The pet's chip is its first one not removed (as currentChip reads it): its cover decides.
      const chipOf = new Map<number, (typeof owned)[number]['chip']>();
      for (const { petId, chip } of owned) if (!chipOf.has(petId)) chipOf.set(petId, chip);
      const freePetIds = [...chipOf].filter(([, chip]) => hasActiveCover(chip)).map(([petId]) => petId);
      return { priceCents: price!.priceCents, currency: price!.currency, freePetIds: freePetIds.sort((a, b) => a - b) };
    },
  };
}
