import { collarTagPriceCents, messages, type CheckoutOrder, type cardSchema } from '@petreg/contract';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { chargeTestCard } from '../../adapters/payments/local.js';
import { checkoutSessions, pets, plans, users } from '../../db/schema.js';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { successPath } from './checkout.js';
import type { Completion } from './completion.js';
import { ownedCheckout, refuseTestPayments, type PaymentDeps } from './shared.js';

/** The portal's own checkout page (no Stripe): the order it shows, test cards, canceling. */
export function createLocalCheckout(deps: PaymentDeps, { complete }: Pick<Completion, 'complete'>) {
  const { db } = deps;

  /** A session of the portal's own checkout, for its owner. */
  async function localCheckout(session: Session, sessionId: string) {
    const checkout = await ownedCheckout(db, session, sessionId);
    if (checkout.provider !== 'local') throw notFound(messages.notFound);
    return checkout;
  }

  return {
    async localOrder(session: Session, sessionId: string): Promise<CheckoutOrder> {
      const checkout = await localCheckout(session, sessionId);
      const [row] = await db
        .select({ petName: pets.name, plan: plans })
        .from(pets)
        .innerJoin(plans, eq(plans.id, checkout.planId))
        .where(eq(pets.id, checkout.petId));
      const collarTagCents = checkout.withCollarTag ? collarTagPriceCents : 0;
      const subtotal = row!.plan.priceCents + collarTagCents;
      const { creditCents } = checkout;
      return {
        sessionId: checkout.id,
        petName: row!.petName,
        planName: row!.plan.name,
        oneTime: row!.plan.oneTime,
        planPriceCents: row!.plan.priceCents,
        coupon: checkout.coupon,
        discountCents: subtotal - creditCents - checkout.amountCents,
        creditCents,
        collarTagCents,
        totalCents: checkout.amountCents,
        currency: checkout.currency,
        status: checkout.status as CheckoutOrder['status'],
        cancelUrl: checkout.cancelPath,
        successUrl: successPath(checkout, encodeURIComponent(checkout.id)),
      };
    },

    /** The portal's own checkout: test cards decide, and a paid card completes like a Stripe webhook. */
    async payLocal(session: Session, sessionId: string, card: z.output<typeof cardSchema>): Promise<{ location: string }> {
      refuseTestPayments(deps);
      const checkout = await localCheckout(session, sessionId);
      if (checkout.status !== 'open') throw conflict(messages.checkoutClosed);
      const [, month, year] = /^(\d{2})\s*\/\s*(\d{2})$/.exec(card.expiry)!;
      if (new Date(Date.UTC(2000 + Number(year), Number(month), 1)) <= new Date()) throw badRequest(messages.cardExpired);
      const charge = chargeTestCard(card.cardNumber);
      if (charge.outcome === 'declined') throw new AppError(402, [messages.cardDeclined]);
      if (charge.outcome === 'not-a-test-card') throw badRequest(messages.testCardsOnly);
      const [owner] = await db.select({ email: users.email }).from(users).where(eq(users.id, checkout.userId));
      const [plan] = await db.select({ oneTime: plans.oneTime }).from(plans).where(eq(plans.id, checkout.planId));
      await complete({
        sessionId: checkout.id,
        paymentId: `pi_local_${checkout.id.slice(9)}`,
        subscriptionId: plan!.oneTime ? null : `sub_local_${checkout.id.slice(9)}`,
        cardLast4: charge.last4,
        amountCents: checkout.amountCents,
        currency: checkout.currency,
        customerName: card.name,
        customerEmail: owner!.email,
      }, 'refuse');
      return { location: successPath(checkout, encodeURIComponent(checkout.id)) };
    },

    async cancelLocal(session: Session, sessionId: string): Promise<{ location: string }> {
      const checkout = await localCheckout(session, sessionId);
      const canceled = await db
        .update(checkoutSessions)
        .set({ status: 'canceled' })
        .where(and(eq(checkoutSessions.id, checkout.id), eq(checkoutSessions.status, 'open')))
        .returning({ id: checkoutSessions.id });
      if (canceled.length === 0) throw conflict(messages.checkoutClosed);
      return { location: checkout.cancelPath };
    },
  };
}
