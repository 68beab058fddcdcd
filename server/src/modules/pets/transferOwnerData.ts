import { and, asc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { mailOutbox, petTransfers, pets } from '../../db/schema.js';
import { ERASED, mentions, type ClosingStep } from '../ownerData/closingSteps.js';
import type { ExportSection } from '../ownerData/exportSections.js';

/** An offer made by the account, or sent to its address. */
const offersOf = (owner: { id: number; email: string }) =>
  or(eq(petTransfers.fromUserId, owner.id), eq(petTransfers.toUserId, owner.id), eq(sql`lower(${petTransfers.toEmail})`, owner.email.toLowerCase()))!;

/**
 * The export's transfers: the offers the owner made (with the address they typed) and those made to
 * them (the pet and when, not the other owner's address). Never the link's code.
 */
export const transfersExport: ExportSection = {
  key: 'transfers',
  async build(db, owner) {
    const rows = await db
      .select({ transfer: petTransfers, petName: pets.name })
      .from(petTransfers)
      .innerJoin(pets, eq(pets.id, petTransfers.petId))
      .where(offersOf(owner))
      .orderBy(asc(petTransfers.id));
    return rows.map(({ transfer, petName }) => {
      const made = transfer.fromUserId === owner.id;
      return {
        id: transfer.id,
        direction: made ? 'offered by you' : 'offered to you',
        petId: transfer.petId,
        petName,
        ...(made && { toEmail: transfer.toEmail }),
        status: transfer.status,
        createdAt: transfer.createdAt,
        expiresAt: transfer.expiresAt,
        closedAt: transfer.closedAt,
      };
    });
  },
};

/**
 * Closing an account: its open offers, made or received, end as canceled; the e-mails its offers sent
 * their addressees (which name the owner by first name) are dropped or emptied; the addresses the
 * offers name (the owner's own, or the one the owner gave) are erased; a dispute hold on its pets goes.
 */
export const closeTransfers: ClosingStep = async (tx, account) => {
  const mine = offersOf(account);
  // An empty name would be found in every e-mail.
  const named = account.firstName ? [account.firstName] : [];
  const addressees = tx.select({ email: sql`lower(${petTransfers.toEmail})` }).from(petTransfers).where(eq(petTransfers.fromUserId, account.id));
  const offerMails = and(
    eq(mailOutbox.kind, 'transfer'),
    inArray(sql`lower(${mailOutbox.recipient})`, addressees),
    or(mentions(mailOutbox.subject, named), mentions(mailOutbox.text, named)),
  );
  await tx.update(mailOutbox).set({ status: 'canceled' }).where(and(offerMails, eq(mailOutbox.status, 'pending')));
  await tx.update(mailOutbox).set({ subject: ERASED, text: ERASED, html: null }).where(offerMails);
  await tx
    .update(petTransfers)
    .set({ status: 'canceled', closedAt: sql`now()` })
    .where(and(mine, eq(petTransfers.status, 'open')));
  await tx.update(petTransfers).set({ toEmail: '' }).where(mine);
  if (account.petIds.length > 0) {
    await tx
      .update(pets)
      .set({ transferHoldReason: null, transferHoldAt: null, transferHoldBy: null })
      .where(and(inArray(pets.id, account.petIds), isNotNull(pets.transferHoldAt)));
  }
};
