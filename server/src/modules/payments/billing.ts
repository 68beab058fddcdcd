import { messages, paths, type BillingOverview, type MicrochipSubscription, type PaymentToRefund } from '@petreg/contract';
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { recordAudit } from '../../db/audit.js';
import { checkoutSessions, chips, payments, pets, plans, users } from '../../db/schema.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import { mayActFor, type Session } from '../../plugins/auth.js';
import { ownedCheckout, type PaymentDeps } from './shared.js';

/** The owner's billing page: payments, protected pets, stopping a renewal, the provider's dashboard. */
export function createBilling(deps: PaymentDeps) {
  const { db, provider, publicUrl } = deps;

  async function subscriptionsOf(userId: number): Promise<MicrochipSubscription[]> {
    const rows = await db
      .select({ checkout: checkoutSessions, petName: pets.name, plan: plans, chipId: chips.chipId, expiration: chips.expirationDate, chipOneTime: chips.oneTime })
      .from(checkoutSessions)
      .innerJoin(pets, eq(pets.id, checkoutSessions.petId))
      .innerJoin(plans, eq(plans.id, checkoutSessions.planId))
      .leftJoin(chips, and(eq(chips.petId, pets.id), isNull(chips.removedAt)))
      .where(
        and(
          eq(checkoutSessions.userId, userId),
          eq(checkoutSessions.status, 'complete'),
          // An alert's checkout bought no cover.
          isNull(checkoutSessions.alertId),
          // A pet transferred to another owner, or removed, is no longer the payer's to follow here.
          eq(pets.userId, userId),
          isNull(pets.deletedAt),
        ),
      )
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
      const checkout = await ownedCheckout(db, session, checkoutId);
      if (checkout.subscriptionStatus !== 'active' || !checkout.subscriptionId) throw conflict(messages.checkoutClosed);
      await provider.cancelSubscription(checkout.subscriptionId);
      await db.update(checkoutSessions).set({ subscriptionStatus: 'canceled' }).where(eq(checkoutSessions.id, checkout.id));
    },

    /** Payments the provider took that were not applied, oldest first: the administrator refunds them. */
    async paymentsToRefund(): Promise<PaymentToRefund[]> {
      const rows = await db
        .select({ payment: payments, owner: users, petName: pets.name })
        .from(payments)
        .innerJoin(users, eq(users.id, payments.userId))
        .leftJoin(pets, eq(pets.id, payments.petId))
        .where(eq(payments.status, 'refund_due'))
        .orderBy(asc(payments.createdAt));
      return rows.map(({ payment, owner, petName }) => ({
        id: payment.id,
        ownerName: `${owner.firstName} ${owner.lastName}`,
        ownerEmail: owner.email,
        petId: payment.petId,
        petName,
        amountCents: payment.amountCents,
        currency: payment.currency,
        createdAt: payment.createdAt.toISOString(),
        provider: payment.provider,
        providerPaymentId: payment.providerPaymentId,
        reason: payment.refundReason,
      }));
    },

    /**
     * The administrator refunded the payment at the provider: it leaves the list, once, and the
     * audit log keeps who said so and when, so no payment is refunded twice.
     */
    async markRefunded(session: Session, paymentId: number): Promise<{ id: number }> {
      return db.transaction(async (tx) => {
        const [refunded] = await tx
          .update(payments)
          .set({ status: 'refunded' })
          .where(and(eq(payments.id, paymentId), eq(payments.status, 'refund_due')))
          .returning({ id: payments.id });
        if (!refunded) {
          const [exists] = await tx.select({ id: payments.id }).from(payments).where(eq(payments.id, paymentId));
          throw exists ? conflict(messages.paymentNotDueForRefund) : notFound(messages.notFound);
        }
        await recordAudit(tx, {
          actorUserId: session.userId,
          action: 'refunded',
          entity: 'payment',
          entityId: paymentId,
          before: { status: 'refund_due' },
          after: { status: 'refunded' },
        });
        return refunded;
      });
    },

    /** The billing dashboard: the provider's, or the portal's own billing page. */
    async billingDashboardUrl(session: Session, uid: number): Promise<string> {
      if (!mayActFor(session, uid)) throw forbidden(messages.forbidden);
      const [owner] = await db.select({ customerId: users.paymentCustomerId }).from(users).where(eq(users.id, uid));
      if (!owner) throw notFound(messages.notFound);
      return (await provider.billingDashboardUrl(owner.customerId, `${publicUrl}${paths.client}`)) ?? `${publicUrl}/billing`;
    },
  };
}
