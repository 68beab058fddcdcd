import { messages } from '@petreg/contract';
import { and, asc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { PaymentProvider } from '../../adapters/payments/index.js';
import type { Database, Transaction } from '../../db/client.js';
import { checkoutSessions, chips, settings } from '../../db/schema.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { mayActFor, type Session } from '../../plugins/auth.js';
import type { UserService } from '../users/service.js';

/** What every part of the payments module works with. */
export interface PaymentDeps {
  db: Database;
  provider: PaymentProvider;
  /** Told when an owner's roles or pets change, so their cached user object is read again. */
  accounts: UserService;
  publicUrl: string;
  log: { error(details: object, message: string): void };
  /** The portal's own (simulated) checkout refuses to start or take a card: a production portal without Stripe. */
  testPaymentsRefused?: boolean;
  /** Hears the fan-out size of each alert a payment sends (counted for /metrics). */
  onFanOut?: (recipients: number) => void;
}

export type CheckoutRow = typeof checkoutSessions.$inferSelect;

export type ChipRow = typeof chips.$inferSelect;

export async function currentChip(source: Database | Transaction, petId: number, options: { lock?: boolean } = {}): Promise<ChipRow | undefined> {
  const query = source.select().from(chips).where(and(eq(chips.petId, petId), isNull(chips.removedAt))).orderBy(asc(chips.id)).limit(1);
  const [chip] = options.lock ? await query.for('update') : await query;
  return chip;
}

/** Lifetime cover is never traded for less, nor bought twice. */
export const hasLifetimeCover = (chip: ChipRow) => chip.oneTime && chip.isActive;

/**
 * The chip is registered now: lifetime, or yearly and not expired (as the microchip lookup decides).
 * Its plan promises instant notifications, so the pet's lost pet alerts go out at no charge.
 */
export const hasActiveCover = (chip: ChipRow, now = new Date()) =>
  chip.isActive && (chip.oneTime || chip.expirationDate === null || chip.expirationDate > now);

/**
 * Ends the pet's open checkouts: its plan checkouts when its chip or plan changed (they were priced
 * and made eligible for the old one; an alert's checkout does not depend on either), its alert
 * checkouts when cover made its alerts free, or all of them. Called in the transaction that makes
 * the change, after the pet row is written.
 */
export async function cancelOpenCheckouts(tx: Transaction, petId: number, which: 'plans' | 'alerts' | 'all' = 'plans'): Promise<void> {
  const kind = which === 'plans' ? isNull(checkoutSessions.alertId) : which === 'alerts' ? isNotNull(checkoutSessions.alertId) : undefined;
  await tx
    .update(checkoutSessions)
    .set({ status: 'canceled' })
    .where(and(eq(checkoutSessions.petId, petId), eq(checkoutSessions.status, 'open'), kind));
}

/**
 * The pet left its payer (transferred, or removed): no checkout of theirs stays payable for it, an
 * alert's included, and its yearly renewals are marked to stop. The worker tells the provider
 * (stopReplacedSubscriptions, retried until it can); a renewal charged meanwhile is recorded for a
 * refund. Called in the transaction that makes the change.
 */
export async function releasePetFromPayer(tx: Transaction, petId: number): Promise<void> {
  await cancelOpenCheckouts(tx, petId, 'all');
  await tx
    .update(checkoutSessions)
    .set({ subscriptionStatus: 'canceling' })
    .where(and(eq(checkoutSessions.petId, petId), eq(checkoutSessions.subscriptionStatus, 'active'), isNotNull(checkoutSessions.subscriptionId)));
}

export async function ownedCheckout(db: Database, session: Session, sessionId: string): Promise<CheckoutRow> {
  const [checkout] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
  if (!checkout) throw notFound(messages.notFound);
  if (!mayActFor(session, checkout.userId)) throw forbidden(messages.forbidden);
  return checkout;
}

/** The tag is offered (enableQRcodeUpsell) and can be bought only while it is in stock. */
export async function collarTagOnSale(db: Database): Promise<boolean> {
  const rows = await db.select().from(settings).where(inArray(settings.key, ['enableQRcodeUpsell', 'collarTagInStock']));
  return rows.length === 2 && rows.every((row) => row.value === true);
}

/** A production portal never takes a simulated payment: nothing would be charged for real cover. */
export function refuseTestPayments({ provider, testPaymentsRefused }: Pick<PaymentDeps, 'provider' | 'testPaymentsRefused'>): void {
  if (provider.name === 'local' && testPaymentsRefused) throw new AppError(503, [messages.testPaymentsRefused]);
}
