import { messages } from '@petreg/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { recordAudit } from '../../db/audit.js';
import type { Database } from '../../db/client.js';
import { pets } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';

export type TransferHolds = ReturnType<typeof createTransferHolds>;

/**
 * An administrator's dispute hold on a pet (`PUT`/`DELETE admin/pet-hold/{petId}`): while it is on,
 * the owner can neither offer the pet nor see an offer accepted; the administrator's own transfer
 * warns of it. Who set it, when and why show on the pet's record; each change is audited.
 */
export function createTransferHolds({ db }: { db: Database }) {
  async function change(session: Session, petId: number, reason: string | null) {
    await db.transaction(async (tx) => {
      const [pet] = await tx.select().from(pets).where(and(eq(pets.id, petId), isNull(pets.deletedAt))).for('update');
      if (!pet) throw notFound(messages.notFound);
      const hold = reason === null ? { transferHoldReason: null, transferHoldAt: null, transferHoldBy: null } : { transferHoldReason: reason, transferHoldAt: new Date(), transferHoldBy: session.userId };
      await tx.update(pets).set(hold).where(eq(pets.id, petId));
      await recordAudit(tx, {
        actorUserId: session.userId,
        action: reason === null ? 'transfer-hold-lifted' : 'transfer-hold-set',
        entity: 'pet',
        entityId: petId,
        before: { reason: pet.transferHoldReason },
        after: { reason },
      });
    });
  }

  return {
    async set(session: Session, petId: number, reason: string) {
      await change(session, petId, reason);
      return { message: messages.transferHoldSet };
    },
    async lift(session: Session, petId: number) {
      await change(session, petId, null);
      return { message: messages.transferHoldLifted };
    },
  };
}
