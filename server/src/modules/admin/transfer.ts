import { messages, type PetTransfer, type TransferPetInput } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import { recordAudit } from '../../db/audit.js';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { mailOutbox, users } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import type { PaymentService } from '../payments/service.js';
import { handOverPet, hasOpenAlert, lockPet } from '../pets/ownership.js';
import { tellOffersEnded } from '../pets/transferEmails.js';
import { accountForInvitee } from '../users/invitations.js';
import type { UserService } from '../users/service.js';
import { petReceivedEmail, petTransferredAwayEmail } from './emails.js';

export type PetTransferService = ReturnType<typeof createPetTransfer>;

const nameOf = ({ firstName, lastName }: { firstName: string; lastName: string }) => `${firstName} ${lastName}`.trim();

/**
 * POST admin/transfer-pet/{petId}: the pet moves to the account of the e-mail given, made (with an
 * invitation to set its password) when there is none, as an owner's accepted offer moves it
 * (handOverPet: chips, cover and alerts go along, vet links end, the previous owner's renewal stops).
 * Payments stay in the payer's history. An offer the owner had open ends, its addressee told.
 */
export function createPetTransfer({ db, accounts, payments, publicUrl }: { db: Database; accounts: UserService; payments: Pick<PaymentService, 'stopReplacedSubscriptions'>; publicUrl: string }) {

  return {
    async transfer(session: Session, petId: number, { Email: email, confirmOpenAlert = false, confirmHold = false }: TransferPetInput): Promise<PetTransfer> {
      let outcome: { previousOwnerId: number; newOwnerId: number; invited: boolean };
      try {
        outcome = await db.transaction(async (tx) => {
          const pet = await lockPet(tx, petId);
          if (!pet) throw notFound(messages.notFound);
          const [previous] = await tx.select().from(users).where(eq(users.id, pet.userId));
          // A lost pet changes hands only when the administrator confirmed it, knowing its alert goes along;
          // a pet held for a dispute, likewise knowing of the hold.
          if (!confirmOpenAlert && (await hasOpenAlert(tx, pet.id))) throw conflict(messages.transferOpenAlert);
          if (pet.transferHoldAt && !confirmHold) throw conflict(messages.adminTransferHeld);
          const from = nameOf(previous!) || previous!.email;
          const { user: next, invited } = await accountForInvitee(tx, publicUrl, email, { petName: pet.name, from });
          if (next.id === pet.userId) throw conflict(messages.petAlreadyOwned);
          if (!next.isActive) throw conflict(messages.transferAccountInactive);
          // As with an upload: the registry's staff never hold owners' pets.
          if (next.roles.includes('admin')) throw conflict(messages.petUploadAccountAdmin);

          const ended = await handOverPet(tx, { petId: pet.id, toUserId: next.id, actorUserId: session.userId });
          await tellOffersEnded(tx, ended, pet.name, previous!.firstName);
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
