import {
  alertSentPath,
  collarTagPriceCents,
  couponCode,
  isCouponChip,
  messages,
  paths,
  protectionPlanKeys,
  withId,
  type LifetimePrice,
  type Plan,
  type checkoutQuerySchema,
} from '@petreg/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { checkoutSessions, pets, plans, users } from '../../db/schema.js';
import { badRequest, conflict } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { findOwnedPet } from '../pets/ownership.js';
import { checkoutPrice } from './pricing.js';
import { cancelOpenCheckouts, collarTagOnSale, currentChip, hasLifetimeCover, refuseTestPayments, type CheckoutRow, type PaymentDeps } from './shared.js';

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
export function successPath(checkout: Pick<CheckoutRow, 'petId' | 'alertId'>, sessionId: string): string {
  const page = checkout.alertId ? alertSentPath(checkout.petId) : paths.petRegistrationComplete;
  return `${page}?session_id=${sessionId}`;
}

/** What a new checkout sells: a plan for a pet (with its chip, coupon and tag), or the price of one of its alerts. */
export interface Purchase {
  pet: { id: number; name: string; userId: number };
  plan: typeof plans.$inferSelect;
  amountCents: number;
  coupon: { code: string; percentOff: number } | null;
  /** Credit for unused yearly cover, taken off a lifetime plan's price. */
  creditCents: number;
  collarTagCents: number | null;
  /** The chip a plan covers; null for an alert. */
  chipRowId: number | null;
  alertId: number | null;
  /** Where canceling the checkout returns the buyer. */
  cancelPath: string;
}

/** The name of the one-off discount a credit gives at the provider. */
const creditName = (coupon: { code: string } | null) => (coupon ? `${coupon.code} and credit for unused yearly cover` : 'Credit for unused yearly cover');

/** Choosing a plan and opening its checkout: the provider's, or the portal's own page (localCheckout.ts). */
export function createCheckout(deps: PaymentDeps) {
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

    const collarTagCents = query.isTagSelected ? collarTagPriceCents : null;
    const price = await checkoutPrice(db, petId, plan, chip, collarTagCents);
    return openCheckout({
      pet,
      plan,
      amountCents: price.totalCents,
      coupon: price.coupon,
      creditCents: price.creditCents,
      collarTagCents,
      chipRowId: chip.id,
      alertId: null,
      cancelPath,
    });
  }

  /** Starts a checkout at the provider and records it; answers where to send the browser. */
  async function openCheckout(purchase: Purchase): Promise<{ location: string }> {
    refuseTestPayments(deps);
    const { pet, plan, coupon, creditCents } = purchase;
    const [owner] = await db.select().from(users).where(eq(users.id, pet.userId));
    const listCents = plan.priceCents + (purchase.collarTagCents ?? 0);
    const started = await provider.startCheckout({
      customer: { email: owner!.email, name: `${owner!.firstName} ${owner!.lastName}`, providerCustomerId: owner!.paymentCustomerId },
      pet: { id: pet.id, name: pet.name },
      plan: { name: plan.name, priceCents: plan.priceCents, currency: plan.currency, oneTime: plan.oneTime, priceId: plan.priceId },
      // The provider takes one discount a checkout: a credit carries the coupon's part too.
      coupon: creditCents ? null : coupon,
      discount: creditCents ? { amountOffCents: listCents - purchase.amountCents, name: creditName(coupon) } : null,
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
      creditCents,
      currency: plan.currency,
      chipRowId: purchase.chipRowId,
      alertId: purchase.alertId,
      cancelPath: purchase.cancelPath,
    });
    return { location: started.url };
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

    /** What lifetime cover costs this pet now: its price, less the coupon and the credit of the yearly cover it replaces. */
    async lifetimePrice(session: Session, petId: number): Promise<LifetimePrice> {
      await findOwnedPet(db, session, petId);
      const chip = await chipToCover(petId);
      const [lifetime] = await db.select().from(plans).where(eq(plans.planKey, 'lifetime'));
      const price = await checkoutPrice(db, petId, lifetime!, chip, null);
      return {
        planPriceCents: lifetime!.priceCents,
        coupon: price.coupon?.code ?? null,
        discountCents: price.couponDiscountCents,
        creditCents: price.creditCents,
        totalCents: price.totalCents,
        currency: lifetime!.currency,
      };
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
  };
}
