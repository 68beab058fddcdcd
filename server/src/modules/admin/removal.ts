import { messages } from '@petreg/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { recordAudit } from '../../db/audit.js';
import type { Database } from '../../db/client.js';
import { chips, pets } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import type { PaymentService } from '../payments/service.js';
import { releasePetFromPayer } from '../payments/shared.js';
import type { UserService } from '../users/service.js';

export type PetRemovalService = ReturnType<typeof createPetRemoval>;

/**
 * GET admin/remove-pet/{petId}: a soft delete. The row stays, with who removed it and when, for the
 * audit; every owner call and public page already leaves out removed pets. The pet's chips are retired
 * too (kept as history), so the number is free to be registered again, say to the pet's real record,
 * and a yearly renewal for it stops.
 */
export function createPetRemoval({ db, accounts, payments }: { db: Database; accounts: UserService; payments: Pick<PaymentService, 'stopReplacedSubscriptions'> }) {
  return {
    async remove(session: Session, petId: number): Promise<{ id: number }> {
      const ownerId = await db.transaction(async (tx) => {
        const now = new Date();
        const [removed] = await tx
          .update(pets)
          .set({ deletedAt: now, deletedBy: session.userId, updatedAt: now })
          .where(and(eq(pets.id, petId), isNull(pets.deletedAt)))
          .returning();
        if (!removed) throw notFound(messages.notFound);
        const retired = await tx
          .update(chips)
          .set({ removedAt: now })
          .where(and(eq(chips.petId, petId), isNull(chips.removedAt)))
          .returning({ chipId: chips.chipId });
        await releasePetFromPayer(tx, petId);
        await recordAudit(tx, {
          actorUserId: session.userId,
          action: 'remove',
          entity: 'pet',
          entityId: petId,
          before: { ...removed, deletedAt: null, deletedBy: null, chips: retired.map((c) => c.chipId) },
          after: { deletedAt: now.toISOString() },
        });
        return removed.userId;
      });
      await payments.stopReplacedSubscriptions();
      accounts.forget(ownerId);
      return { id: petId };
    },
  };
}
