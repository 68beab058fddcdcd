import { and, eq, isNull } from 'drizzle-orm';
import { recordAudit } from '../../db/audit.js';
import type { Transaction } from '../../db/client.js';
import { chips, pets } from '../../db/schema.js';
import { releasePetFromPayer } from '../payments/shared.js';

/**
 * A pet's soft delete: the row stays, with who removed it and when, for the audit; every owner call
 * and public page already leaves out removed pets. The pet's chips are retired too (kept as history),
 * so the number is free to be registered again, say to the pet's real record, and a yearly renewal
 * for it stops (the caller, or the worker within a minute, tells the provider). Answers the owner's
 * id, or null when the pet does not exist or is removed already.
 */
export async function removePet(tx: Transaction, petId: number, actorUserId: number): Promise<number | null> {
  const now = new Date();
  const [removed] = await tx
    .update(pets)
    .set({ deletedAt: now, deletedBy: actorUserId, updatedAt: now })
    .where(and(eq(pets.id, petId), isNull(pets.deletedAt)))
    .returning();
  if (!removed) return null;
  const retired = await tx
    .update(chips)
    .set({ removedAt: now })
    .where(and(eq(chips.petId, petId), isNull(chips.removedAt)))
    .returning({ chipId: chips.chipId });
  await releasePetFromPayer(tx, petId);
  await recordAudit(tx, {
    actorUserId,
    action: 'remove',
    entity: 'pet',
    entityId: petId,
    before: { ...removed, deletedAt: null, deletedBy: null, chips: retired.map((c) => c.chipId) },
    after: { deletedAt: now.toISOString() },
  });
  return removed.userId;
}
