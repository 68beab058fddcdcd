import { messages } from '@petreg/contract';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { petAlerts, petTransfers, pets, sitePets } from '../../db/schema.js';
import { forbidden, notFound } from '../../errors.js';
import { mayActFor, type Session } from '../../plugins/auth.js';
import { releasePetFromPayer } from '../payments/shared.js';

/** The pet, when it exists and the session may act on it; 404 or 403 otherwise. */
export async function findOwnedPet(db: Database | Transaction, session: Session, petId: number) {
  const [pet] = await db.select().from(pets).where(and(eq(pets.id, petId), isNull(pets.deletedAt)));
  return ownedOrRefused(session, pet);
}

/** What a read of a pet found, when the session may act on it: 404 when nothing, 403 when it is another's. */
export function ownedOrRefused<T extends { userId: number }>(session: Session, found: T | undefined): T {
  if (!found) throw notFound(messages.notFound);
  if (!mayActFor(session, found.userId)) throw forbidden(messages.forbidden);
  return found;
}

/** The live pet, locked for its change of owner: a second transfer of it waits, then sees the new owner. */
export async function lockPet(tx: Transaction, petId: number) {
  const [pet] = await tx.select().from(pets).where(and(eq(pets.id, petId), isNull(pets.deletedAt))).for('update');
  return pet;
}

/** Whether the pet has an open lost pet alert (NEW while unpaid, paid once sent). */
export async function hasOpenAlert(tx: Transaction, petId: number): Promise<boolean> {
  const [open] = await tx
    .select({ id: petAlerts.id })
    .from(petAlerts)
    .where(and(eq(petAlerts.petId, petId), inArray(petAlerts.status, ['NEW', 'paid'])));
  return Boolean(open);
}

/**
 * Moves a locked pet to another account: the administrator's transfer and an owner's accepted offer
 * alike. Its chips, plan, cover, alerts and found reports follow it (they hang on the pet). Its vet
 * links end: they are the previous owner's choice of vet, and the public profile would offer that
 * vet's number to whoever finds the pet; backup contacts are the previous owner's account's and
 * never were the pet's. Nothing the previous owner opened or set to renew bills them for it any more
 * (the caller has the worker tell the provider after commit). An offer still open for the pet ends:
 * it was the previous owner's to make. The verification question goes too: it asks finders about the
 * previous owner's secret, which the new owner may not know (they set their own).
 * Answers the offers so ended, for their addressees to be told.
 */
export async function handOverPet(
  tx: Transaction,
  { petId, toUserId, actorUserId, shareContactInfo }: { petId: number; toUserId: number; actorUserId: number; shareContactInfo?: boolean },
) {
  const now = new Date();
  await tx
    .update(pets)
    .set({ userId: toUserId, verificationQuestion: null, updatedAt: now, ...(shareContactInfo !== undefined && { shareContactInfo }) })
    .where(eq(pets.id, petId));
  await tx
    .update(sitePets)
    .set({ deletedAt: now, deletedBy: actorUserId })
    .where(and(eq(sitePets.petId, petId), isNull(sitePets.deletedAt)));
  await releasePetFromPayer(tx, petId);
  return tx
    .update(petTransfers)
    .set({ status: 'canceled', closedAt: now })
    .where(and(eq(petTransfers.petId, petId), eq(petTransfers.status, 'open')))
    .returning();
}
