import { messages, type PetTransfer, type TransferPetInput } from '@petreg/contract';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { recordAudit } from '../../db/audit.js';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { mailOutbox, petAlerts, pets, sitePets, users } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import type { PaymentService } from '../payments/service.js';
import { releasePetFromPayer } from '../payments/shared.js';
import { accountForInvitee } from '../users/invitations.js';
import type { UserService } from '../users/service.js';
import { petReceivedEmail, petTransferredAwayEmail } from './emails.js';

export type PetTransferService = ReturnType<typeof createPetTransfer>;

const nameOf = ({ firstName, lastName }: { firstName: string; lastName: string }) => `${firstName} ${lastName}`.trim();

/**
 * POST admin/transfer-pet/{petId}: the pet moves to the account of the e-mail given, made (with an
 * invitation to set its password) when there is none. Its chips, plan and cover move with it, and so
 * do its lost pet alerts. Its vet links end: they are the previous owner's choice of vet, and the public
 * profile would offer that vet's number to whoever finds the pet. Backup contacts belong to the
 * previous owner's account and never were the pet's. Payments stay in the payer's history, and a
 * yearly renewal on the previous owner's card stops: the cover runs to its date, then the new owner
 * chooses a plan.
 */
export function createPetTransfer({ db, accounts, payments, publicUrl }: { db: Database; accounts: UserService; payments: Pick<PaymentService, 'stopReplacedSubscriptions'>; publicUrl: string }) {

  return {
    async transfer(session: Session, petId: number, { Email: email, confirmOpenAlert = false }: TransferPetInput): Promise<PetTransfer> {
      let outcome: { previousOwnerId: number; newOwnerId: number; invited: boolean };
      try {
        outcome = await db.transaction(async (tx) => {
          // Locked, so a second transfer of the same pet waits and then sees the new owner.
          const [pet] = await tx.select().from(pets).where(and(eq(pets.id, petId), isNull(pets.deletedAt))).for('update');
          if (!pet) throw notFound(messages.notFound);
          const [previous] = await tx.select().from(users).where(eq(users.id, pet.userId));
          // A lost pet changes hands only when the administrator confirmed it, knowing its alert goes along.
          const [openAlert] = await tx
            .select({ id: petAlerts.id })
            .from(petAlerts)
            .where(and(eq(petAlerts.petId, pet.id), inArray(petAlerts.status, ['NEW', 'paid'])));
          if (openAlert && !confirmOpenAlert) throw conflict(messages.transferOpenAlert);
          const from = nameOf(previous!) || previous!.email;
          const { user: next, invited } = await accountForInvitee(tx, publicUrl, email, { petName: pet.name, from });
          if (next.id === pet.userId) throw conflict(messages.petAlreadyOwned);
          if (!next.isActive) throw conflict(messages.transferAccountInactive);
          // As with an upload: the registry's staff never hold owners' pets.
          if (next.roles.includes('admin')) throw conflict(messages.petUploadAccountAdmin);

          const now = new Date();
          await tx.update(pets).set({ userId: next.id, updatedAt: now }).where(eq(pets.id, pet.id));
          await tx
            .update(sitePets)
            .set({ deletedAt: now, deletedBy: session.userId })
            .where(and(eq(sitePets.petId, pet.id), isNull(sitePets.deletedAt)));
          // Nothing the previous owner opened or set to renew bills them for the new owner's pet.
          await releasePetFromPayer(tx, pet.id);
          await recordAudit(tx, {
            actorUserId: session.userId,
            action: 'transfer',
            entity: 'pet',
            entityId: pet.id,
            before: { userId: previous!.id, email: previous!.email },
            after: { userId: next.id, email: next.email, newAccount: invited },
          });
          await tx.insert(mailOutbox).values({ recipient: previous!.email, ...petTransferredAwayEmail(previous!.firstName, pet.name) });
          await tx.insert(mailOutbox).values({ recipient: next.email, ...petReceivedEmail(next.firstName, pet.name) });
          return { previousOwnerId: previous!.id, newOwnerId: next.id, invited };
        });
      } catch (error) {
        // An account with this e-mail was made at the same moment: the administrator tries again.
        if (isUniqueViolation(error)) throw conflict(messages.genericError);
        throw error;
      }
      await payments.stopReplacedSubscriptions();
      // Both owners' pet lists (haveActivePets) changed.
      accounts.forget(outcome.previousOwnerId);
      accounts.forget(outcome.newOwnerId);
      return { message: messages.petTransferred, petId, userId: outcome.newOwnerId, newAccount: outcome.invited };
    },
  };
}
