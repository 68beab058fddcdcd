import { messages, type AcceptedPetTransfer } from '@petreg/contract';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { recordAudit } from '../../db/audit.js';
import type { Database, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { petTransfers, users } from '../../db/schema.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import type { PaymentService } from '../payments/service.js';
import { byEmail, hashToken } from '../users/accounts.js';
import { openInvitedAccount } from '../users/invitations.js';
import type { UserService } from '../users/service.js';
import { handOverPet, lockPet } from './ownership.js';
import { acceptedEmails } from './transferEmails.js';
import { isOpen, offerWithParties, refusesPets, refuseWhileHeld, tellBoth } from './transfers.js';

type Account = typeof users.$inferSelect;
/** Who takes the pet: the signed-in addressee, or an account the acceptance opens (with its set-password page). */
type Addressee = (tx: Transaction, toEmail: string) => Promise<{ account: Account; setPasswordPath: string | null }>;

/**
 * Accepting an owner's offer: in one transaction, under a lock on the pet then the offer, the offer
 * is checked still open and the pet still the offerer's and not held (a dispute hold, or a lost pet
 * alert opened while the offer waited), then the pet moves as an administrator's transfer moves it
 * (handOverPet) and both sides are told. The previous owner loses access at once.
 */
export type TransferAcceptance = ReturnType<typeof createTransferAcceptance>;

export function createTransferAcceptance({ db, accounts, payments }: { db: Database; accounts: UserService; payments: Pick<PaymentService, 'stopReplacedSubscriptions'> }) {
  async function accept(which: SQL | undefined, addressee: Addressee, shareContactInfo: boolean): Promise<AcceptedPetTransfer> {
    let outcome: { petId: number; fromUserId: number; toUserId: number; setPasswordPath: string | null };
    try {
      outcome = await db.transaction(async (tx) => {
        const [found] = await tx.select({ id: petTransfers.id, petId: petTransfers.petId }).from(petTransfers).where(which);
        if (!found) throw notFound(messages.transferNotOpen);
        const pet = await lockPet(tx, found.petId);
        const row = await offerWithParties(tx, and(eq(petTransfers.id, found.id), isOpen));
        // Answered, cancelled or expired (a second acceptance among them), or the pet is gone or changed hands.
        if (!row || !pet || pet.userId !== row.offer.fromUserId) throw conflict(messages.transferNotOpen);
        await refuseWhileHeld(tx, pet);
        const { account, setPasswordPath } = await addressee(tx, row.offer.toEmail);
        if (refusesPets(account)) throw conflict(messages.transferAddresseeRefused);

        await tx.update(petTransfers).set({ status: 'accepted', toUserId: account.id, closedAt: new Date() }).where(eq(petTransfers.id, row.offer.id));
        await handOverPet(tx, { petId: pet.id, toUserId: account.id, actorUserId: account.id, shareContactInfo });
        await recordAudit(tx, {
          actorUserId: account.id,
          action: 'transfer-accepted',
          entity: 'pet',
          entityId: pet.id,
          before: { userId: row.offer.fromUserId },
          after: { userId: account.id, offerId: row.offer.id, newAccount: setPasswordPath !== null },
        });
        const parties = { petName: pet.name, fromFirstName: row.fromFirstName, toEmail: row.offer.toEmail, toFirstName: account.firstName };
        await tellBoth(tx, row.fromEmail, account.email, acceptedEmails(parties));
        return { petId: pet.id, fromUserId: row.offer.fromUserId, toUserId: account.id, setPasswordPath };
      });
    } catch (error) {
      // An account with this e-mail was opened at the same moment: the addressee signs in and accepts.
      if (isUniqueViolation(error)) throw conflict(messages.transferSignInToAccept);
      throw error;
    }
    await payments.stopReplacedSubscriptions();
    // Both owners' pet lists (haveActivePets) changed.
    accounts.forget(outcome.fromUserId);
    accounts.forget(outcome.toUserId);
    return { message: messages.transferAccepted, petId: outcome.petId, setPasswordPath: outcome.setPasswordPath };
  }

  return {
    /** The signed-in addressee accepts from the dashboard: an offer made to another e-mail is not found. */
    async acceptSignedIn(session: Session, transferId: number, shareContactInfo: boolean) {
      const [me] = await db.select().from(users).where(eq(users.id, session.userId));
      // An offer goes to an address: only an account that proved it is that address's owner.
      if (!me!.emailVerifiedAt) throw forbidden(messages.transferConfirmEmailFirst);
      return accept(
        and(eq(petTransfers.id, transferId), eq(sql`lower(${petTransfers.toEmail})`, me!.email.toLowerCase())),
        async () => ({ account: me!, setPasswordPath: null }),
        shareContactInfo,
      );
    },

    /**
     * From the mailed link, without signing in: for an address with no account, which the link proves,
     * the account is opened and its set-password page answered. An address with an account signs in
     * to accept: the link alone does not act for an account.
     */
    async acceptByLink(token: string, shareContactInfo: boolean) {
      return accept(
        eq(petTransfers.tokenHash, hashToken(token)),
        async (tx, toEmail) => {
          const [existing] = await tx.select({ id: users.id }).from(users).where(byEmail(toEmail));
          if (existing) throw forbidden(messages.transferSignInToAccept);
          const { user, setPasswordPath } = await openInvitedAccount(tx, toEmail);
          return { account: user, setPasswordPath };
        },
        shareContactInfo,
      );
    },
  };
}
