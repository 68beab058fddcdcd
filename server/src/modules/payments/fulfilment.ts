import { isCouponChip, messages, paths } from '@petreg/contract';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { PaidCheckout } from '../../adapters/payments/index.js';
import type { Transaction } from '../../db/client.js';
import { checkoutSessions, chips, mailOutbox, petAlerts, pets, plans, users } from '../../db/schema.js';
import { sendAlert } from '../alerts/dispatch.js';
import { receiptEmail } from './emails.js';
import { cancelOpenCheckouts, currentChip, hasActiveCover, hasLifetimeCover, type CheckoutRow, type ChipRow, type PaymentDeps } from './shared.js';

/** One year on from the later of now and the current expiry, so renewing early loses nothing. */
export function nextExpiry(current: Date | null, now = new Date()): Date {
  const from = current && current > now ? current : now;
  const next = new Date(from);
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next;
}

/**
 * Why a paid checkout cannot give what it sold to the pet as it is now, or null when it can. The
 * cover goes to the chip the checkout was priced and made eligible for, and to no other.
 */
function refusalOf(checkout: CheckoutRow, pet: { planId: number | null }, chip: ChipRow | undefined): string | null {
  if (checkout.status !== 'open') return messages.checkoutClosed;
  // Every checkout starts from the pet's chosen plan; a plan chosen since (even while the provider
  // was still creating this session) wins over it.
  if (checkout.planId !== pet.planId) return messages.checkoutPlanChanged;
  if (!chip) return messages.petNeedsChip;
  if (chip.id !== checkout.chipRowId) return messages.checkoutChipChanged;
  if (hasLifetimeCover(chip)) return messages.alreadyLifetime;
  if (checkout.coupon && !isCouponChip(chip.chipId)) return messages.couponNotEligible;
  return null;
}

type PetRow = typeof pets.$inferSelect;
type UserRow = typeof users.$inferSelect;

/** What a paid checkout gives, once it is known to still fit: applied in the completing transaction. */
export interface Fulfilment {
  /** Why it cannot be given (the payment is then refused or due for a refund), or null. */
  refusal: string | null;
  apply(): Promise<void>;
  /** What still happens when the payment is recorded for a refund instead (for the payer, who still has the pet). */
  whenRefundDue?(): Promise<void>;
}

/** What each kind of checkout gives: a protection plan, or a lost pet alert. */
export function createFulfilments({ publicUrl, onFanOut }: Pick<PaymentDeps, 'publicUrl' | 'onFanOut'>) {
  /** A protection plan: a year more (or life) for the pet's chip, the paying member's role, a receipt. */
  async function forPlan(tx: Transaction, checkout: CheckoutRow, pet: PetRow, owner: UserRow, paid: PaidCheckout): Promise<Fulfilment> {
    const [plan] = await tx.select().from(plans).where(eq(plans.id, checkout.planId));
    const chip = await currentChip(tx, pet.id, { lock: true });
    return {
      refusal: refusalOf(checkout, pet, chip),
      async apply() {
        await tx
          .update(checkoutSessions)
          .set({
            status: 'complete',
            completedAt: new Date(),
            subscriptionId: paid.subscriptionId,
            subscriptionStatus: plan!.oneTime ? null : 'active',
          })
          .where(eq(checkoutSessions.id, checkout.id));
        const expiration = plan!.oneTime ? null : nextExpiry(chip!.isActive ? chip!.expirationDate : null);
        await tx.update(chips).set({ isActive: true, oneTime: plan!.oneTime, expirationDate: expiration }).where(eq(chips.id, chip!.id));
        await tx.update(pets).set({ isActive: true, planId: plan!.id, updatedAt: new Date() }).where(eq(pets.id, pet.id));
        await tx
          .update(users)
          .set({ roles: sql`array_append(${users.roles}, 'paidcustomer')` })
          .where(and(eq(users.id, checkout.userId), sql`not ('paidcustomer' = any(${users.roles}))`));
        // A new plan replaces the pet's earlier subscription: the owner is never billed twice for one pet.
        // 'canceling' is the durable note that the provider must still be told; see stopReplacedSubscriptions.
        await tx
          .update(checkoutSessions)
          .set({ subscriptionStatus: 'canceling' })
          .where(
            and(
              eq(checkoutSessions.petId, pet.id),
              eq(checkoutSessions.subscriptionStatus, 'active'),
              ne(checkoutSessions.id, checkout.id),
            ),
          );
        // Cover sends the pet's alerts free: an alert checkout opened before it must not charge for one.
        await cancelOpenCheckouts(tx, pet.id, 'alerts');
        await tx.insert(mailOutbox).values({
          recipient: owner.email,
          ...receiptEmail({
            firstName: owner.firstName,
            petName: pet.name,
            planName: plan!.name,
            amountCents: paid.amountCents,
            creditCents: checkout.creditCents,
            currency: paid.currency,
            expiration,
            dashboardUrl: `${publicUrl}${paths.client}`,
          }),
        });
      },
    };
  }

  /** A lost pet alert: it goes out, in this transaction, while it still waits for this payment. */
  async function forAlert(tx: Transaction, checkout: CheckoutRow, paid: PaidCheckout): Promise<Fulfilment> {
    const [alert] = await tx.select().from(petAlerts).where(eq(petAlerts.id, checkout.alertId!)).for('update');
    return {
      refusal: checkout.status !== 'open' ? messages.checkoutClosed : alert!.status !== 'NEW' ? messages.alertNotAwaitingPayment : null,
      async apply() {
        await tx.update(checkoutSessions).set({ status: 'complete', completedAt: new Date() }).where(eq(checkoutSessions.id, checkout.id));
        await sendAlert(tx, alert!.id, { publicUrl, payment: { amountCents: paid.amountCents, currency: paid.currency }, onFanOut });
      },
      // Paid after cover made it free (buying cover canceled its checkout): the payment is refunded,
      // and the alert the owner paid to send still goes out, at no charge.
      async whenRefundDue() {
        const chip = await currentChip(tx, checkout.petId, { lock: true });
        if (alert!.status === 'NEW' && chip && hasActiveCover(chip)) await sendAlert(tx, alert!.id, { publicUrl, payment: null, onFanOut });
      },
    };
  }

  return { forPlan, forAlert };
}
