import {
  alertSentPath,
  collarTagPriceCents,
  couponCode,
  couponPercentOff,
  isCouponChip,
  withCoupon,
  messages,
  paths,
  protectionPlanKeys,
  withId,
  type CheckoutOrder,
  type Plan,
  type cardSchema,
  type checkoutQuerySchema,
} from '@petreg/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { chargeTestCard } from '../../adapters/payments/local.js';
import { checkoutSessions, pets, plans, users } from '../../db/schema.js';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { findOwnedPet } from '../pets/ownership.js';
import type { Completion } from './completion.js';
import { cancelOpenCheckouts, collarTagOnSale, currentChip, hasLifetimeCover, ownedCheckout, type CheckoutRow, type PaymentDeps } from './shared.js';

function toPlan(row: typeof plans.$inferSelect): Plan {
  return {
    id: row.id,
    planId: row.planKey,
    name: row.name,
    priceId: row.priceId,
    planPrice: row.priceCents / 100,
    priceCents: row.priceCents,
    currency: row.currency,
    oneTime: row.oneTime,
  };
}

/**
 * Where a paid checkout leads, with its session id (the page confirms the payment by it): Lost Pet
 * Alert Sent for an alert, the Thank You page for a plan.
 */
function successPath(checkout: Pick<CheckoutRow, 'petId' | 'alertId'>, sessionId: string): string {
  const page = checkout.alertId ? alertSentPath(checkout.petId) : paths.petRegistrationComplete;
  return `${page}?session_id=${sessionId}`;
}

/** What a new checkout sells: a plan for a pet (with its chip, coupon and tag), or the price of one of its alerts. */
export interface Purchase {
  pet: { id: number; name: string; userId: number };
  plan: typeof plans.$inferSelect;
  amountCents: number;
  coupon: { code: string; percentOff: number } | null;
  collarTagCents: number | null;
  /** The chip a plan covers; null for an alert. */
  chipRowId: number | null;
  alertId: number | null;
  /** Where canceling the checkout returns the buyer. */
  cancelPath: string;
}

/** Choosing a plan and paying for it: the provider's checkout, or the portal's own page. */
export function createCheckout(deps: PaymentDeps, { complete }: Pick<Completion, 'complete'>) {
  const { db, provider, publicUrl } = deps;

  /** Chooses the pet's plan. Checkouts started before are for what was chosen then, so they end; the new one starts after. */
  async function updatePlan(session: Session, petId: number, planId: number): Promise<{ id: number }> {
    await findOwnedPet(db, session, petId);
    const [plan] = await db
      .select({ id: plans.id })
      .from(plans)
      .where(and(eq(plans.id, planId), inArray(plans.planKey, [...protectionPlanKeys])));
    if (!plan) throw badRequest(messages.planNotFound);
    await db.transaction(async (tx) => {
      await tx.update(pets).set({ planId, updatedAt: new Date() }).where(eq(pets.id, petId));
      await cancelOpenCheckouts(tx, petId);
    });
    return { id: petId };
  }

  /** The pet's chip a plan would cover: refused without one, or when it already has lifetime cover. */
  async function chipToCover(petId: number) {
    const chip = await currentChip(db, petId);
    if (!chip) throw badRequest(messages.petNeedsChip);
    if (hasLifetimeCover(chip)) throw conflict(messages.alreadyLifetime);
    return chip;
  }

  /**
   * Starts paying for the pet's chosen plan; answers where to send the browser. The checkout
   * records the chip it covers and where canceling returns the buyer (`cancelPath`, the plan
   * choice unless given).
   */
  async function startCheckout(
    session: Session,
    petId: number,
    query: z.output<typeof checkoutQuerySchema>,
    cancelPath = withId(query.petFlow ? paths.petSubscription : paths.clientPetCheckout, petId),
  ): Promise<{ location: string }> {
    const pet = await findOwnedPet(db, session, petId);
    const [plan] = pet.planId ? await db.select().from(plans).where(eq(plans.id, pet.planId)) : [];
    if (!plan) throw badRequest(messages.planNotFound);
    const chip = await chipToCover(petId);
    const eligible = isCouponChip(chip.chipId);
    if (query.coupon && (query.coupon !== couponCode || !eligible)) throw badRequest(messages.couponNotEligible);
    if (query.isTagSelected && !(await collarTagOnSale(db))) throw badRequest(messages.collarTagUnavailable);

    const coupon = eligible ? { code: couponCode, percentOff: couponPercentOff } : null;
    const collarTagCents = query.isTagSelected ? collarTagPriceCents : null;
    const subtotal = plan.priceCents + (collarTagCents ?? 0);
    return openCheckout({
      pet,
      plan,
      amountCents: coupon ? withCoupon(subtotal) : subtotal,
      coupon,
      collarTagCents,
      chipRowId: chip.id,
      alertId: null,
      cancelPath,
    });
  }

  /** Starts a checkout at the provider and records it; answers where to send the browser. */
  async function openCheckout(purchase: Purchase): Promise<{ location: string }> {
    const { pet, plan, coupon } = purchase;
    const [owner] = await db.select().from(users).where(eq(users.id, pet.userId));
    const started = await provider.startCheckout({
      customer: { email: owner!.email, name: `${owner!.firstName} ${owner!.lastName}`, providerCustomerId: owner!.paymentCustomerId },
      pet: { id: pet.id, name: pet.name },
      plan: { name: plan.name, priceCents: plan.priceCents, currency: plan.currency, oneTime: plan.oneTime, priceId: plan.priceId },
      coupon,
      collarTagCents: purchase.collarTagCents,
      successUrl: `${publicUrl}${successPath({ petId: pet.id, alertId: purchase.alertId }, '{CHECKOUT_SESSION_ID}')}`,
      cancelUrl: `${publicUrl}${purchase.cancelPath}`,
      metadata: {
        petId: String(pet.id),
        userId: String(owner!.id),
        planId: String(plan.id),
        ...(purchase.alertId && { alertId: String(purchase.alertId) }),
      },
    });
    if (started.providerCustomerId && started.providerCustomerId !== owner!.paymentCustomerId) {
      await db.update(users).set({ paymentCustomerId: started.providerCustomerId }).where(eq(users.id, owner!.id));
    }
    await db.insert(checkoutSessions).values({
      id: started.sessionId,
      provider: provider.name,
      userId: owner!.id,
      petId: pet.id,
      planId: plan.id,
      coupon: coupon?.code ?? null,
      withCollarTag: Boolean(purchase.collarTagCents),
      amountCents: purchase.amountCents,
      currency: plan.currency,
      chipRowId: purchase.chipRowId,
      alertId: purchase.alertId,
      cancelPath: purchase.cancelPath,
    });
    return { location: started.url };
  }

  /** A session of the portal's own checkout, for its owner. */
  async function localCheckout(session: Session, sessionId: string) {
    const checkout = await ownedCheckout(db, session, sessionId);
    if (checkout.provider !== 'local') throw notFound(messages.notFound);
    return checkout;
  }

  return {
    updatePlan,
    startCheckout,
    openCheckout,

    /** The protection plans; the alert's price is kept with them but is no plan to choose. */
    async plans(): Promise<{ plans: Plan[] }> {
      const rows = await db.select().from(plans).where(inArray(plans.planKey, [...protectionPlanKeys])).orderBy(asc(plans.priceCents));
      return { plans: rows.map(toPlan) };
    },

    async collarTagPlan() {
      return { planPrice: collarTagPriceCents / 100, currency: 'usd', inStock: await collarTagOnSale(db) };
    },

    /** Upgrade to Lifetime: the pet's plan becomes lifetime and a checkout for it starts. */
    async upgrade(session: Session, petId: number): Promise<{ location: string }> {
      await findOwnedPet(db, session, petId);
      // Refused before the plan changes, so a refused upgrade leaves the pet's plan and checkouts as they were.
      await chipToCover(petId);
      const [lifetime] = await db.select().from(plans).where(eq(plans.planKey, 'lifetime'));
      await updatePlan(session, petId, lifetime!.id);
      // The upgrade starts on the pet's page, so canceling it goes back there.
      return startCheckout(session, petId, { petFlow: false, isTagSelected: false }, withId(paths.clientPetUpdate, petId));
    },

    async localOrder(session: Session, sessionId: string): Promise<CheckoutOrder> {
      const checkout = await localCheckout(session, sessionId);
      const [row] = await db
        .select({ petName: pets.name, plan: plans })
        .from(pets)
        .innerJoin(plans, eq(plans.id, checkout.planId))
        .where(eq(pets.id, checkout.petId));
      const collarTagCents = checkout.withCollarTag ? collarTagPriceCents : 0;
      const subtotal = row!.plan.priceCents + collarTagCents;
      return {
        sessionId: checkout.id,
        petName: row!.petName,
        planName: row!.plan.name,
        oneTime: row!.plan.oneTime,
        planPriceCents: row!.plan.priceCents,
        coupon: checkout.coupon,
        discountCents: subtotal - checkout.amountCents,
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

    /** Only an open checkout is canceled: one paid or canceled meanwhile (a second tab) is refused. */
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
