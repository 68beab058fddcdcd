import { messages } from '@petreg/contract';
import type { Database } from '../../db/client.js';
import { notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import type { PaymentService } from '../payments/service.js';
import { removePet } from '../pets/removal.js';
import type { UserService } from '../users/service.js';

export type PetRemovalService = ReturnType<typeof createPetRemoval>;

/** GET admin/remove-pet/{petId}: a soft delete (removePet), its renewal stopped at once. */
export function createPetRemoval({ db, accounts, payments }: { db: Database; accounts: UserService; payments: Pick<PaymentService, 'stopReplacedSubscriptions'> }) {
  return {
    async remove(session: Session, petId: number): Promise<{ id: number }> {
      const ownerId = await db.transaction(async (tx) => {
        const owner = await removePet(tx, petId, session.userId);
        if (owner === null) throw notFound(messages.notFound);
        return owner;
      });
      await payments.stopReplacedSubscriptions();
      accounts.forget(ownerId);
      return { id: petId };
    },
  };
}
