import {
  collarTagPriceCents,
  couponCode,
  couponPercentOff,
  isCouponChip,
  withCoupon,
  messages,
  paths,
  type BillingOverview,
  type CheckoutOrder,
  type MicrochipSubscription,
  type PaymentCompletion,
  type Plan,
} from '@petreg/contract';
import { and, asc, desc, eq, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { cardSchema, checkoutQuerySchema } from '@petreg/contract';
import { chargeTestCard } from '../../adapters/payments/local.js';
import type { PaidCheckout, PaidRenewal, PaymentProvider } from '../../adapters/payments/index.js';
import type { Database, Transaction } from '../../db/client.js';
import { checkoutSessions, chips, mailOutbox, payments, pets, plans, settings, states, users } from '../../db/schema.js';
import { AppError, badRequest, conflict, forbidden, loggable, notFound } from '../../errors.js';
import { mayActFor, type Session } from '../../plugins/auth.js';
import { findOwnedPet } from '../pets/ownership.js';
import type { UserService } from '../users/service.js';
import { receiptEmail } from './emails.js';

type PlanRow = typeof plans.$inferSelect;
type CheckoutRow = typeof checkoutSessions.$inferSelect;


/** One year on from the later of now and the current expiry, so renewing early loses nothing. */
export function nextExpiry(current: Date | null, now = new Date()): Date {
  const from = current && current > now ? current : now;
  const next = new Date(from);
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next;
}

function toPlan(row: PlanRow): Plan {
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

export type PaymentService = ReturnType<typeof createPaymentService>;

export function createPaymentService(deps: {
  db: Database;
  provider: PaymentProvider;
  /** Told when an owner's roles or pets change, so their cached user object is read again. */
  accounts: UserService;
  publicUrl: string;
  log: { error(details: object, message: string): void };
}) {
  const { db, provider, accounts, publicUrl } = deps;

  async function currentChip(source: Database | Transaction, petId: number) {
    const [chip] = await source.select().from(chips).where(and(eq(chips.petId, petId), isNull(chips.removedAt))).orderBy(asc(chips.id)).limit(1);
    return chip;
  }

  async function ownedCheckout(session: Session, sessionId: string): Promise<CheckoutRow> {
    const [checkout] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
    if (!checkout) throw notFound(messages.notFound);
    if (!mayActFor(session, checkout.userId)) throw forbidden(messages.forbidden);
    return checkout;
  }

  /** The tag is offered (enableQRcodeUpsell) and can be bought only while it is in stock. */
  async function collarTagOnSale(): Promise<boolean> {
    const rows = await db.select().from(settings).where(inArray(settings.key, ['enableQRcodeUpsell', 'collarTagInStock']));
    return rows.length === 2 && rows.every((row) => row.value === true);
  }

  /** Records a paid payment; false when one with the same provider id exists (a replay). */
  async function recordPaymentOnce(
    tx: Transaction,
    values: Omit<typeof payments.$inferInsert, 'provider' | 'status'>,
  ): Promise<boolean> {
    const inserted = await tx
      .insert(payments)
      .values({ ...values, provider: provider.name, status: 'paid' })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    return inserted.length > 0;
  }

  /**
   * Marks the checkout paid and gives the owner what was bought, all in one transaction. The
   * payment row's unique session id makes a replay (webhook retry, reloaded page) change nothing.
   */
  async function complete(paid: PaidCheckout): Promise<void> {
    const outcome = await db.transaction(async (tx) => {
      const [checkout] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, paid.sessionId)).for('update');
      // The provider's retry brings the payment back if our checkout record is missing; never drop it.
      if (!checkout) throw notFound(messages.notFound);
      if (checkout.status === 'complete') return null;
      const [plan] = await tx.select().from(plans).where(eq(plans.id, checkout.planId));
      const [owner] = await tx.select().from(users).where(eq(users.id, checkout.userId));
      const [pet] = await tx.select().from(pets).where(eq(pets.id, checkout.petId));
      const recorded = await recordPaymentOnce(tx, {
        userId: checkout.userId,
        petId: checkout.petId,
        planId: checkout.planId,
        providerSessionId: paid.sessionId,
        providerPaymentId: paid.paymentId,
        providerSubscriptionId: paid.subscriptionId,
        cardLast4: paid.cardLast4,
        amountCents: paid.amountCents,
        currency: paid.currency,
        coupon: checkout.coupon,
        customerName: paid.customerName ?? `${owner!.firstName} ${owner!.lastName}`,
        customerEmail: paid.customerEmail ?? owner!.email,
      });
      if (!recorded) return null;
      await tx
        .update(checkoutSessions)
        .set({
          status: 'complete',
          completedAt: new Date(),
          subscriptionId: paid.subscriptionId,
          subscriptionStatus: plan!.oneTime ? null : 'active',
        })
        .where(eq(checkoutSessions.id, checkout.id));
      const chip = await currentChip(tx, checkout.petId);
      const expiration = plan!.oneTime ? null : nextExpiry(chip?.isActive && !chip.oneTime ? chip.expirationDate : null);
      if (chip) await tx.update(chips).set({ isActive: true, oneTime: plan!.oneTime, expirationDate: expiration }).where(eq(chips.id, chip.id));
      await tx.update(pets).set({ isActive: true, planId: plan!.id, updatedAt: new Date() }).where(eq(pets.id, checkout.petId));
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
            eq(checkoutSessions.petId, checkout.petId),
            eq(checkoutSessions.subscriptionStatus, 'active'),
            ne(checkoutSessions.id, checkout.id),
          ),
        )
      await tx.insert(mailOutbox).values({
        recipient: owner!.email,
        ...receiptEmail({
          firstName: owner!.firstName,
          petName: pet!.name,
          planName: plan!.name,
          amountCents: paid.amountCents,
          currency: paid.currency,
          expiration,
          dashboardUrl: `${publicUrl}${paths.client}`,
        }),
      });
      return { userId: checkout.userId };
    });
    if (!outcome) return;
    accounts.forget(outcome.userId);
    await stopReplacedSubscriptions();
  }

  /**
   * Tells the provider to stop the subscriptions a newer plan replaced. One that fails stays
   * 'canceling' and is tried again by the worker, so an owner is never billed for a replaced plan.
   */
  async function stopReplacedSubscriptions(): Promise<number> {
    const pending = await db
      .select({ id: checkoutSessions.id, subscriptionId: checkoutSessions.subscriptionId })
      .from(checkoutSessions)
      .where(eq(checkoutSessions.subscriptionStatus, 'canceling'));
    let stopped = 0;
    for (const { id, subscriptionId } of pending) {
      try {
        if (subscriptionId) await provider.cancelSubscription(subscriptionId);
        await db.update(checkoutSessions).set({ subscriptionStatus: 'canceled' }).where(eq(checkoutSessions.id, id));
        stopped++;
      } catch (error) {
        deps.log.error({ err: loggable(error), subscriptionId }, 'could not cancel a replaced subscription at the provider; will retry');
      }
    }
    return stopped;
  }

  /** A yearly plan charged again: one more year, recorded once per invoice. */
  async function renew(renewal: PaidRenewal): Promise<void> {
    const userId = await db.transaction(async (tx) => {
      const [checkout] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.subscriptionId, renewal.subscriptionId));
      if (!checkout) throw notFound(messages.notFound);
      const recorded = await recordPaymentOnce(tx, {
        userId: checkout.userId,
        petId: checkout.petId,
        planId: checkout.planId,
        providerSessionId: renewal.invoiceId,
        providerSubscriptionId: renewal.subscriptionId,
        amountCents: renewal.amountCents,
        currency: renewal.currency,
      });
      if (!recorded) return null;
      const chip = await currentChip(tx, checkout.petId);
      if (chip && !chip.oneTime) {
        await tx.update(chips).set({ isActive: true, expirationDate: nextExpiry(chip.expirationDate) }).where(eq(chips.id, chip.id));
      }
      await tx.update(pets).set({ isActive: true, updatedAt: new Date() }).where(eq(pets.id, checkout.petId));
      return checkout.userId;
    });
    if (userId) accounts.forget(userId);
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

  async function subscriptionsOf(userId: number): Promise<MicrochipSubscription[]> {
    const rows = await db
      .select({ checkout: checkoutSessions, petName: pets.name, plan: plans, chipId: chips.chipId, expiration: chips.expirationDate, chipOneTime: chips.oneTime })
      .from(checkoutSessions)
      .innerJoin(pets, eq(pets.id, checkoutSessions.petId))
      .innerJoin(plans, eq(plans.id, checkoutSessions.planId))
      .leftJoin(chips, and(eq(chips.petId, pets.id), isNull(chips.removedAt)))
      .where(and(eq(checkoutSessions.userId, userId), eq(checkoutSessions.status, 'complete'), isNull(pets.deletedAt)))
      .orderBy(desc(checkoutSessions.completedAt));
    const now = new Date();
    return rows.map(({ checkout, petName, plan, chipId, expiration, chipOneTime }) => {
      // A yearly plan replaced by lifetime protection shows as canceled, not as expired.
      const status = plan.oneTime
        ? 'active'
        : chipOneTime
          ? 'canceled'
          : !expiration || expiration < now
            ? 'expired'
            : (checkout.subscriptionStatus ?? 'active');
      return {
        id: checkout.id,
        petId: checkout.petId,
        petName,
        chipId,
        planName: plan.name,
        oneTime: plan.oneTime,
        // A yearly plan later upgraded shows the lifetime chip's state.
        expirationDate: chipOneTime ? null : (expiration?.toISOString() ?? null),
        status,
      };
    });
  }

  return {
    complete,
    stopReplacedSubscriptions,

    async plans(): Promise<{ plans: Plan[] }> {
      const rows = await db.select().from(plans).orderBy(asc(plans.priceCents));
      return { plans: rows.map(toPlan) };
    },

    async collarTagPlan() {
      return { planPrice: collarTagPriceCents / 100, currency: 'usd', inStock: await collarTagOnSale() };
    },

    async updatePlan(session: Session, petId: number, planId: number): Promise<{ id: number }> {
      await findOwnedPet(db, session, petId);
      const [plan] = await db.select({ id: plans.id }).from(plans).where(eq(plans.id, planId));
      if (!plan) throw badRequest(messages.planNotFound);
      await db.update(pets).set({ planId, updatedAt: new Date() }).where(eq(pets.id, petId));
      return { id: petId };
    },

    /** Starts paying for the pet's chosen plan; answers where to send the browser. */
    async startCheckout(session: Session, petId: number, query: z.output<typeof checkoutQuerySchema>): Promise<{ location: string }> {
      const pet = await findOwnedPet(db, session, petId);
      const [plan] = pet.planId ? await db.select().from(plans).where(eq(plans.id, pet.planId)) : [];
      if (!plan) throw badRequest(messages.planNotFound);
      const chip = await currentChip(db, petId);
      if (!chip) throw badRequest(messages.petNeedsChip);
      // Lifetime cover is never traded for less, nor bought twice.
      if (chip.oneTime && chip.isActive) throw conflict(messages.alreadyLifetime);
      const eligible = isCouponChip(chip.chipId);
      if (query.coupon && (query.coupon !== couponCode || !eligible)) throw badRequest(messages.couponNotEligible);
      if (query.isTagSelected && !(await collarTagOnSale())) throw badRequest(messages.collarTagUnavailable);

      const [owner] = await db.select().from(users).where(eq(users.id, pet.userId));
      const coupon = eligible ? { code: couponCode, percentOff: couponPercentOff } : null;
      const collarTagCents = query.isTagSelected ? collarTagPriceCents : null;
      const subtotal = plan.priceCents + (collarTagCents ?? 0);
      const amountCents = coupon ? withCoupon(subtotal) : subtotal;
      const cancelPath = query.petFlow ? `/pet-subscription/${petId}` : `/client/pet/checkout/${petId}`;
      const started = await provider.startCheckout({
        customer: { email: owner!.email, name: `${owner!.firstName} ${owner!.lastName}`, providerCustomerId: owner!.paymentCustomerId },
        pet: { id: pet.id, name: pet.name },
        plan: { name: plan.name, priceCents: plan.priceCents, currency: plan.currency, oneTime: plan.oneTime, priceId: plan.priceId },
        coupon,
        collarTagCents,
        successUrl: `${publicUrl}/pet-registration-complete?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${publicUrl}${cancelPath}`,
        metadata: { petId: String(pet.id), userId: String(owner!.id), planId: String(plan.id) },
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
        withCollarTag: Boolean(collarTagCents),
        amountCents,
        currency: plan.currency,
      });
      return { location: started.url };
    },

    /** Upgrade to Lifetime: the pet's plan becomes lifetime and a checkout for it starts. */
    async upgrade(session: Session, petId: number): Promise<{ location: string }> {
      await findOwnedPet(db, session, petId);
      const [lifetime] = await db.select().from(plans).where(eq(plans.oneTime, true)).limit(1);
      await this.updatePlan(session, petId, lifetime!.id);
      return this.startCheckout(session, petId, { petFlow: false, isTagSelected: false });
    },

    /** The Thank You page's order: completes from the provider's record when its webhook has not arrived yet. */
    async completionFor(session: Session, sessionId: string): Promise<PaymentCompletion> {
      const checkout = await ownedCheckout(session, sessionId);
      if (checkout.status !== 'complete') {
        const paid = await provider.paidCheckout(checkout.id);
        if (paid) await complete(paid);
      }
      return completion(checkout);
    },

    async localOrder(session: Session, sessionId: string): Promise<CheckoutOrder> {
      const checkout = await ownedCheckout(session, sessionId);
      if (checkout.provider !== 'local') throw notFound(messages.notFound);
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
        cancelUrl: `/client/pet/checkout/${checkout.petId}`,
      };
    },

    /** The portal's own checkout: test cards decide, and a paid card completes like a Stripe webhook. */
    async payLocal(session: Session, sessionId: string, card: z.output<typeof cardSchema>): Promise<{ location: string }> {
      const checkout = await ownedCheckout(session, sessionId);
      if (checkout.provider !== 'local') throw notFound(messages.notFound);
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
      });
      return { location: `/pet-registration-complete?session_id=${encodeURIComponent(checkout.id)}` };
    },

    async cancelLocal(session: Session, sessionId: string): Promise<{ location: string }> {
      const checkout = await ownedCheckout(session, sessionId);
      if (checkout.provider !== 'local') throw notFound(messages.notFound);
      await db
        .update(checkoutSessions)
        .set({ status: 'canceled' })
        .where(and(eq(checkoutSessions.id, checkout.id), eq(checkoutSessions.status, 'open')));
      return { location: `/client/pet/checkout/${checkout.petId}` };
    },

    async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<void> {
      let event;
      try {
        event = await provider.readWebhook(rawBody, signature);
      } catch {
        throw badRequest(messages.webhookSignatureInvalid);
      }
      if (event.type === 'checkout.completed') {
        const paid = await provider.paidCheckout(event.sessionId);
        if (paid) await complete(paid);
      } else if (event.type === 'renewal.paid') {
        await renew(event.renewal);
      } else if (event.type === 'subscription.ended') {
        await db
          .update(checkoutSessions)
          .set({ subscriptionStatus: 'canceled' })
          .where(eq(checkoutSessions.subscriptionId, event.subscriptionId));
      }
    },

    subscriptions: (session: Session) => subscriptionsOf(session.userId),

    async billing(session: Session): Promise<BillingOverview> {
      const rows = await db
        .select({ payment: payments, petName: pets.name, planName: plans.name })
        .from(payments)
        .leftJoin(pets, eq(pets.id, payments.petId))
        .leftJoin(plans, eq(plans.id, payments.planId))
        .where(eq(payments.userId, session.userId))
        .orderBy(desc(payments.createdAt));
      return {
        payments: rows.map(({ payment, petName, planName }) => ({
          id: payment.id,
          petName,
          planName,
          cardLast4: payment.cardLast4,
          amountCents: payment.amountCents,
          currency: payment.currency,
          status: payment.status,
          coupon: payment.coupon,
          createdAt: payment.createdAt.toISOString(),
        })),
        subscriptions: await subscriptionsOf(session.userId),
      };
    },

    /** Stops a yearly plan from renewing; the chip stays registered until its expiry. */
    async cancelSubscription(session: Session, checkoutId: string): Promise<void> {
      const checkout = await ownedCheckout(session, checkoutId);
      if (checkout.subscriptionStatus !== 'active' || !checkout.subscriptionId) throw conflict(messages.checkoutClosed);
      await provider.cancelSubscription(checkout.subscriptionId);
      await db.update(checkoutSessions).set({ subscriptionStatus: 'canceled' }).where(eq(checkoutSessions.id, checkout.id));
    },

    /** The billing dashboard: the provider's, or the portal's own billing page. */
    async billingDashboardUrl(session: Session, uid: number): Promise<string> {
      if (!mayActFor(session, uid)) throw forbidden(messages.forbidden);
      const [owner] = await db.select({ customerId: users.paymentCustomerId }).from(users).where(eq(users.id, uid));
      if (!owner) throw notFound(messages.notFound);
      return (await provider.billingDashboardUrl(owner.customerId, `${publicUrl}${paths.client}`)) ?? `${publicUrl}/billing`;
    },

    /** Yearly registrations past their expiry stop being registered: the daily sweep. */
    async expireLapsedRegistrations(now = new Date()): Promise<number> {
      const owners = await db.transaction(async (tx) => {
        const lapsed = await tx
          .update(chips)
          .set({ isActive: false })
          .where(and(eq(chips.isActive, true), eq(chips.oneTime, false), isNull(chips.removedAt), lt(chips.expirationDate, now)))
          .returning({ petId: chips.petId });
        if (lapsed.length === 0) return [];
        return tx
          .update(pets)
          .set({ isActive: false, updatedAt: now })
          .where(inArray(pets.id, lapsed.map((c) => c.petId)))
          .returning({ userId: pets.userId });
      });
      for (const { userId } of owners) accounts.forget(userId);
      return owners.length;
    },
  };
}

