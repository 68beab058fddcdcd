import { messages, type PaymentCompletion } from '@petreg/contract';
import { and, eq, inArray, isNull, lte, notInArray, or, sql } from 'drizzle-orm';
import type { PaidCheckout, PaidRenewal } from '../../adapters/payments/index.js';
import type { Transaction } from '../../db/client.js';
import { checkoutSessions, chips, payments, pets, states, users } from '../../db/schema.js';
import { AppError, conflict, loggable, notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { createFulfilments, nextExpiry } from './fulfilment.js';
import { currentChip, hasLifetimeCover, ownedCheckout, type CheckoutRow, type PaymentDeps } from './shared.js';

/** How long a claim to stop a subscription holds: well past the provider's call with its retries (3 × 20 s). */
const STOP_CLAIM = sql.raw(`interval '10 minutes'`);

/** Completing paid checkouts and renewals: what the owner gets for a payment, given once. */
export function createCompletion(deps: PaymentDeps) {
  const { db, provider, accounts } = deps;
  const fulfilments = createFulfilments(deps);

  /** Records a payment; false when one with the same provider id exists (a replay). */
  async function recordPaymentOnce(tx: Transaction, values: Omit<typeof payments.$inferInsert, 'provider'>): Promise<boolean> {
    const inserted = await tx
      .insert(payments)
      .values({ ...values, provider: provider.name })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    return inserted.length > 0;
  }

  /**
   * Gives the owner what a paid checkout bought, all in one transaction, after checking it still
   * fits the pet as it is now: the pet (and its chip, or its alert) are locked, as every change of
   * chip, plan or alert locks the pet first, so no change slips in between. The payment row's unique
   * session id makes a replay (webhook retry, reloaded page) change nothing.
   *
   * A checkout that no longer fits is never applied. When the provider has already taken the
   * money (`onRefusal: 'refund'`), it is recorded as refund_due for an administrator to refund;
   * the portal's own checkout charges nothing until this succeeds, so it refuses instead (409).
   */
  async function complete(paid: PaidCheckout, onRefusal: 'refund' | 'refuse' = 'refund'): Promise<void> {
    const outcome = await db.transaction(async (tx) => {
      const [found] = await tx.select({ petId: checkoutSessions.petId }).from(checkoutSessions).where(eq(checkoutSessions.id, paid.sessionId));
      // The provider's retry brings the payment back if our checkout record is missing; never drop it.
      if (!found) throw notFound(messages.notFound);
      const [pet] = await tx.select().from(pets).where(eq(pets.id, found.petId)).for('update');
      const [checkout] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, paid.sessionId)).for('update');
      if (checkout!.status === 'complete' || checkout!.status === 'refund_due') return null;
      const [owner] = await tx.select().from(users).where(eq(users.id, checkout!.userId));
      const fulfilment = checkout!.alertId
        ? await fulfilments.forAlert(tx, checkout!, paid)
        : await fulfilments.forPlan(tx, checkout!, pet!, owner!, paid);
      // The pet changed hands (or was removed) while its checkout was open: its payer no longer has it.
      const changedHands = pet!.userId !== checkout!.userId || Boolean(pet!.deletedAt);
      const refusal = changedHands ? messages.checkoutPetChangedHands : fulfilment.refusal;
      if (refusal && onRefusal === 'refuse') {
        await tx.update(checkoutSessions).set({ status: 'canceled' }).where(eq(checkoutSessions.id, checkout!.id));
        return { kind: 'refused' as const, reason: refusal };
      }
      const recorded = await recordPaymentOnce(tx, {
        userId: checkout!.userId,
        petId: checkout!.petId,
        planId: checkout!.planId,
        status: refusal ? 'refund_due' : 'paid',
        refundReason: refusal,
        providerSessionId: paid.sessionId,
        providerPaymentId: paid.paymentId,
        providerSubscriptionId: paid.subscriptionId,
        cardLast4: paid.cardLast4,
        amountCents: paid.amountCents,
        currency: paid.currency,
        coupon: checkout!.coupon,
        customerName: paid.customerName ?? `${owner!.firstName} ${owner!.lastName}`,
        customerEmail: paid.customerEmail ?? owner!.email,
      });
      if (!recorded) return null;
      if (refusal) {
        // A yearly subscription bought this way must not renew either: stopped like a replaced one.
        await tx
          .update(checkoutSessions)
          .set({ status: 'refund_due', completedAt: new Date(), subscriptionId: paid.subscriptionId, subscriptionStatus: paid.subscriptionId ? 'canceling' : null })
          .where(eq(checkoutSessions.id, checkout!.id));
        if (!changedHands) await fulfilment.whenRefundDue?.();
        return { kind: 'refundDue' as const, reason: refusal };
      }
      await fulfilment.apply();
      return { kind: 'applied' as const, userId: checkout!.userId };
    });
    if (!outcome) return;
    if (outcome.kind === 'refused') throw conflict(outcome.reason);
    if (outcome.kind === 'refundDue') {
      noteRefundDue({ sessionId: paid.sessionId, paymentId: paid.paymentId }, outcome.reason);
    } else {
      accounts.forget(outcome.userId);
    }
    await stopReplacedSubscriptions();
  }

  /**
   * Tells the provider to stop the subscriptions a newer plan replaced. One that fails stays
   * 'canceling' and is tried again by the worker, so an owner is never billed for a replaced plan.
   *
   * A transfer or removal calls this right after committing while the worker calls it every minute:
   * each row is claimed just before its provider call, so a concurrent call finds it claimed and
   * leaves it, and the provider is asked once. A claim outlives the provider's call and its retries;
   * one whose process died mid-call runs out, and the worker takes the row again. A row is finished
   * or let go only under its own claim, so a late caller never undoes a newer one's.
   */
  async function stopReplacedSubscriptions(): Promise<number> {
    const tried: string[] = [];
    let stopped = 0;
    for (;;) {
      const next = db
        .select({ id: checkoutSessions.id })
        .from(checkoutSessions)
        .where(
          and(
            eq(checkoutSessions.subscriptionStatus, 'canceling'),
            or(isNull(checkoutSessions.subscriptionClaimedUntil), lte(checkoutSessions.subscriptionClaimedUntil, sql`now()`)),
            tried.length ? notInArray(checkoutSessions.id, tried) : undefined,
          ),
        )
        .orderBy(checkoutSessions.id)
        .limit(1)
        .for('update', { skipLocked: true });
      // To the millisecond, so the claim read back compares equal to the one stored.
      const [claim] = await db
        .update(checkoutSessions)
        .set({ subscriptionClaimedUntil: sql`date_trunc('milliseconds', now() + ${STOP_CLAIM})` })
        .where(inArray(checkoutSessions.id, next))
        .returning({ id: checkoutSessions.id, subscriptionId: checkoutSessions.subscriptionId, until: checkoutSessions.subscriptionClaimedUntil });
      if (!claim) return stopped;
      tried.push(claim.id);
      const underThisClaim = and(eq(checkoutSessions.id, claim.id), eq(checkoutSessions.subscriptionClaimedUntil, claim.until!));
      try {
        if (claim.subscriptionId) await provider.cancelSubscription(claim.subscriptionId);
        await db.update(checkoutSessions).set({ subscriptionStatus: 'canceled', subscriptionClaimedUntil: null }).where(underThisClaim);
        stopped++;
      } catch (error) {
        deps.log.error({ err: loggable(error), subscriptionId: claim.subscriptionId }, 'could not cancel a replaced subscription at the provider; will retry');
        // Let go at once, so the worker's next run tries again rather than waiting out the claim.
        await db.update(checkoutSessions).set({ subscriptionClaimedUntil: null }).where(underThisClaim);
      }
    }
  }

  /**
   * A yearly plan charged again: one more year for the pet's yearly chip, recorded once per invoice.
   * A renewal that has nothing to extend (the plan was never applied, the subscription was replaced
   * or canceled and the provider not yet told, the chip is gone or has lifetime cover) is recorded
   * as refund_due, and its subscription is stopped.
   */
  async function renew(renewal: PaidRenewal): Promise<void> {
    const outcome = await db.transaction(async (tx) => {
      const [checkout] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.subscriptionId, renewal.subscriptionId));
      if (!checkout) throw notFound(messages.notFound);
      await tx.select({ id: pets.id }).from(pets).where(eq(pets.id, checkout.petId)).for('update');
      const chip = await currentChip(tx, checkout.petId, { lock: true });
      const refusal =
        checkout.status !== 'complete'
          ? messages.checkoutClosed
          : checkout.subscriptionStatus !== 'active'
            ? messages.subscriptionNotActive
            : !chip
              ? messages.petNeedsChip
              : hasLifetimeCover(chip)
                ? messages.alreadyLifetime
                : null;
      const recorded = await recordPaymentOnce(tx, {
        userId: checkout.userId,
        petId: checkout.petId,
        planId: checkout.planId,
        status: refusal ? 'refund_due' : 'paid',
        refundReason: refusal,
        providerSessionId: renewal.invoiceId,
        providerSubscriptionId: renewal.subscriptionId,
        amountCents: renewal.amountCents,
        currency: renewal.currency,
      });
      if (!recorded) return null;
      if (refusal) {
        await tx
          .update(checkoutSessions)
          .set({ subscriptionStatus: 'canceling' })
          .where(and(eq(checkoutSessions.id, checkout.id), eq(checkoutSessions.subscriptionStatus, 'active')));
        return { kind: 'refundDue' as const, reason: refusal };
      }
      await tx.update(chips).set({ isActive: true, expirationDate: nextExpiry(chip!.expirationDate) }).where(eq(chips.id, chip!.id));
      await tx.update(pets).set({ isActive: true, updatedAt: new Date() }).where(eq(pets.id, checkout.petId));
      return { kind: 'applied' as const, userId: checkout.userId };
    });
    if (outcome?.kind === 'applied') accounts.forget(outcome.userId);
    if (outcome?.kind === 'refundDue') {
      noteRefundDue({ invoiceId: renewal.invoiceId, subscriptionId: renewal.subscriptionId }, outcome.reason);
      await stopReplacedSubscriptions();
    }
  }

  function noteRefundDue(payment: object, reason: string) {
    deps.log.error({ ...payment, reason }, 'payment not applied: it is due for a refund');
  }

  async function completion(checkout: CheckoutRow): Promise<PaymentCompletion> {
    const [row] = await db
      .select({ payment: payments, user: users, state: states.abbreviation, country: states.countryAbbreviation })
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId))
      .leftJoin(states, eq(states.id, users.stateId))
      .where(eq(payments.providerSessionId, checkout.id));
    if (!row) throw new AppError(409, [messages.paymentNotComplete]);
    const { payment, user } = row;
    if (payment.status === 'refund_due') throw conflict(messages.paymentRefundDue);
    return {
      customerEmail: payment.customerEmail,
      phoneNumber: user.phoneNumber,
      firstName: user.firstName,
      lastName: user.lastName,
      customerAddress: { line1: user.address1, city: user.city, state: row.state, zipCode: user.zipcode, country: row.country },
      currency: payment.currency,
      orderTotal: payment.amountCents,
      paymentId: payment.providerPaymentId ?? payment.providerSessionId,
      coupon: payment.coupon,
      tax: 0,
      petId: checkout.petId,
    };
  }

  return {
    complete,
    renew,
    stopReplacedSubscriptions,

    /** The Thank You page's order: completes from the provider's record when its webhook has not arrived yet. */
    async completionFor(session: Session, sessionId: string): Promise<PaymentCompletion> {
      const checkout = await ownedCheckout(db, session, sessionId);
      if (checkout.status !== 'complete') {
        const paid = await provider.paidCheckout(checkout.id);
        if (paid) await complete(paid);
      }
      return completion(checkout);
    },
  };
}

export type Completion = ReturnType<typeof createCompletion>;
