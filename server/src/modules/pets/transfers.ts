import { randomBytes } from 'node:crypto';
import { isSameEmail, messages, paths, type PetTransferOffer, type PetTransfers } from '@petreg/contract';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { mailOutbox, petTransfers, pets, species, users } from '../../db/schema.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { byEmail, hashToken } from '../users/accounts.js';
import { hasOpenAlert } from './ownership.js';
import { canceledEmails, declinedEmails, offerEmail, offerSentEmail, type OfferParties, type TransferMail } from './transferEmails.js';

export type OwnerTransfers = ReturnType<typeof createOwnerTransfers>;

/** An offer still open: not answered, not cancelled, not past its 7 days (the worker may not have marked it yet). */
export const isOpen = and(eq(petTransfers.status, 'open'), gt(petTransfers.expiresAt, sql`now()`));

/** The refusals that hold a pet where it is: an administrator's dispute hold, then an open lost pet alert. */
export async function refuseWhileHeld(tx: Transaction, pet: typeof pets.$inferSelect) {
  if (pet.transferHoldAt) throw conflict(messages.transferHeldByDispute);
  // A found pet is not handed on by mistake while its alert is out.
  if (await hasOpenAlert(tx, pet.id)) throw conflict(messages.transferHeldByAlert);
}

/** An account that may not take a pet from an owner: an administrator's (staff hold no owners' pets) or a disabled one. */
export const refusesPets = (account: typeof users.$inferSelect) => account.roles.includes('admin') || !account.isActive;

/** The offer with what its notices name, read under a lock on the offer (callers lock the pet first when they move it). */
export async function offerWithParties(tx: Transaction, where: ReturnType<typeof and>) {
  const [row] = await tx
    .select({ offer: petTransfers, petName: pets.name, fromFirstName: users.firstName, fromEmail: users.email })
    .from(petTransfers)
    .innerJoin(pets, eq(pets.id, petTransfers.petId))
    .innerJoin(users, eq(users.id, petTransfers.fromUserId))
    .where(where)
    .for('update', { of: petTransfers });
  return row;
}

/** Tells both sides of an offer: the owner and the addressee. */
export async function tellBoth(tx: Transaction, fromEmail: string, toEmail: string, mails: { owner: TransferMail; addressee: TransferMail }) {
  await tx.insert(mailOutbox).values([
    { recipient: fromEmail, ...mails.owner },
    { recipient: toEmail, ...mails.addressee },
  ]);
}

/**
 * Transfers an owner offers (issue 20): `POST Pet/{id}/transfer` mails the addressee a single-use link
 * (only its SHA-256 is kept) valid 7 days; the owner cancels, the addressee declines, here;
 * acceptance is in transferAcceptance.ts, expiry in the worker (transferExpiry.ts).
 */
export function createOwnerTransfers({ db, publicUrl }: { db: Database; publicUrl: string }) {
  return {
    async start(session: Session, petId: number, email: string) {
      const token = randomBytes(32).toString('base64url');
      try {
        await db.transaction(async (tx) => {
          // Locked, so a hold or an alert set at this moment is seen, and two offers do not cross.
          const [pet] = await tx
            .select()
            .from(pets)
            .where(and(eq(pets.id, petId), isNull(pets.deletedAt), eq(pets.userId, session.userId)))
            .for('update');
          // Another owner's pet is as one that does not exist.
          if (!pet) throw notFound(messages.notFound);
          await refuseWhileHeld(tx, pet);
          const [owner] = await tx.select().from(users).where(eq(users.id, session.userId));
          if (isSameEmail(owner!.email, email)) throw conflict(messages.transferToSelf);
          const [addressee] = await tx.select().from(users).where(byEmail(email));
          if (addressee && refusesPets(addressee)) throw conflict(messages.transferAddresseeRefused);
          const [open] = await tx.select({ id: petTransfers.id }).from(petTransfers).where(and(eq(petTransfers.petId, pet.id), eq(petTransfers.status, 'open')));
          if (open) throw conflict(messages.transferAlreadyOpen);
          await tx.insert(petTransfers).values({
            petId: pet.id,
            fromUserId: owner!.id,
            toEmail: email,
            tokenHash: hashToken(token),
            expiresAt: sql`now() + interval '7 days'`,
          });
          const parties = { petName: pet.name, fromFirstName: owner!.firstName, toEmail: email };
          const link = `${publicUrl}${paths.petTransfer}?${new URLSearchParams({ token })}`;
          await tx.insert(mailOutbox).values([
            { recipient: email, ...offerEmail(parties, link) },
            { recipient: owner!.email, ...offerSentEmail(parties) },
          ]);
        });
      } catch (error) {
        // Another offer of the pet committed at the same moment.
        if (isUniqueViolation(error)) throw conflict(messages.transferAlreadyOpen);
        throw error;
      }
      return { message: messages.transferOffered };
    },

    /** The open offers the account made, and those made to its e-mail. */
    async list(session: Session): Promise<PetTransfers> {
      const [me] = await db.select({ email: users.email, emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, session.userId));
      const outgoing = await db
        .select({ id: petTransfers.id, petId: pets.id, petName: pets.name, toEmail: petTransfers.toEmail, createdAt: petTransfers.createdAt, expiresAt: petTransfers.expiresAt })
        .from(petTransfers)
        .innerJoin(pets, eq(pets.id, petTransfers.petId))
        .where(and(isOpen, eq(petTransfers.fromUserId, session.userId), eq(pets.userId, session.userId), isNull(pets.deletedAt)))
        .orderBy(asc(petTransfers.id));
      // Offers to the address are shown only once the account proved it owns the address.
      const incoming = !me!.emailVerifiedAt ? [] : await db
        .select({ id: petTransfers.id, petId: pets.id, petName: pets.name, species: species.name, fromFirstName: users.firstName, expiresAt: petTransfers.expiresAt })
        .from(petTransfers)
        .innerJoin(pets, eq(pets.id, petTransfers.petId))
        .innerJoin(users, eq(users.id, petTransfers.fromUserId))
        .leftJoin(species, eq(species.id, pets.speciesId))
        .where(and(isOpen, eq(sql`lower(${petTransfers.toEmail})`, me!.email.toLowerCase()), isNull(pets.deletedAt)))
        .orderBy(asc(petTransfers.id));
      return {
        outgoing: outgoing.map((t) => ({ ...t, createdAt: t.createdAt.toISOString(), expiresAt: t.expiresAt.toISOString() })),
        incoming: incoming.map((t) => ({ ...t, expiresAt: t.expiresAt.toISOString() })),
      };
    },

    /** The owner withdraws an open offer; another account's offer, or one no longer open, is not found. */
    async cancel(session: Session, transferId: number) {
      await db.transaction(async (tx) => {
        const row = await offerWithParties(tx, and(eq(petTransfers.id, transferId), eq(petTransfers.fromUserId, session.userId), isOpen));
        if (!row) throw notFound(messages.transferNotOpen);
        await close(tx, row, 'canceled');
      });
      return { message: messages.transferCanceled };
    },

    /** The addressee, signed in, declines an offer made to the account's e-mail. */
    async decline(session: Session, transferId: number) {
      await db.transaction(async (tx) => {
        const [me] = await tx.select({ email: users.email, emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, session.userId));
        if (!me!.emailVerifiedAt) throw forbidden(messages.transferConfirmEmailFirst);
        const row = await offerWithParties(tx, and(eq(petTransfers.id, transferId), eq(sql`lower(${petTransfers.toEmail})`, me!.email.toLowerCase()), isOpen));
        if (!row) throw notFound(messages.transferNotOpen);
        await close(tx, row, 'declined');
      });
      return { message: messages.transferDeclined };
    },

    /** The mailed link's offer, as its page shows it; any code but an open offer's is not found. */
    async offerOfLink(token: string): Promise<PetTransferOffer> {
      const [row] = await db
        .select({ petName: pets.name, fromFirstName: users.firstName, toEmail: petTransfers.toEmail, expiresAt: petTransfers.expiresAt })
        .from(petTransfers)
        .innerJoin(pets, eq(pets.id, petTransfers.petId))
        .innerJoin(users, eq(users.id, petTransfers.fromUserId))
        .where(and(eq(petTransfers.tokenHash, hashToken(token)), isOpen, isNull(pets.deletedAt)));
      if (!row) throw notFound(messages.transferNotOpen);
      const [account] = await db.select({ id: users.id }).from(users).where(byEmail(row.toEmail));
      return { ...row, expiresAt: row.expiresAt.toISOString(), hasAccount: Boolean(account) };
    },

    /** The addressee declines from the mailed link: the link proves the address, no account is needed. */
    async declineByLink(token: string) {
      await db.transaction(async (tx) => {
        const row = await offerWithParties(tx, and(eq(petTransfers.tokenHash, hashToken(token)), isOpen));
        if (!row) throw notFound(messages.transferNotOpen);
        await close(tx, row, 'declined');
      });
      return { message: messages.transferDeclined };
    },
  };
}

/** Closes an open offer as declined or cancelled, telling both sides. */
async function close(tx: Transaction, row: NonNullable<Awaited<ReturnType<typeof offerWithParties>>>, status: 'declined' | 'canceled') {
  await tx.update(petTransfers).set({ status, closedAt: new Date() }).where(eq(petTransfers.id, row.offer.id));
  const parties: OfferParties = { petName: row.petName, fromFirstName: row.fromFirstName, toEmail: row.offer.toEmail };
  await tellBoth(tx, row.fromEmail, row.offer.toEmail, status === 'declined' ? declinedEmails(parties) : canceledEmails(parties));
}
