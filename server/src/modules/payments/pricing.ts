import { collarTagPriceCents, couponCode, couponPercentOff, isCouponChip, withCoupon } from '@petreg/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { checkoutSessions, payments, plans } from '../../db/schema.js';
import { hasActiveCover, type ChipRow } from './shared.js';

const DAY = 86_400_000;

/**
 * The unused part of a yearly period paid `paidCents`, pro rata by the days left (a day begun is
 * left: upgrading the day after paying credits 364 days of 365), in whole cents rounded down, never
 * more than `capCents`.
 */
export function unusedCoverCredit(paidCents: number, expiration: Date, now: Date, capCents: number): number {
  const start = new Date(expiration);
  start.setUTCFullYear(start.getUTCFullYear() - 1);
  const periodDays = Math.round((expiration.getTime() - start.getTime()) / DAY);
  const unusedDays = Math.min(periodDays, Math.max(0, Math.ceil((expiration.getTime() - now.getTime()) / DAY)));
  return Math.max(0, Math.min(capCents, Math.floor((paidCents * unusedDays) / periodDays)));
}

/**
 * What moving the pet's chip from yearly cover to lifetime credits: the unused part of what was
 * last paid for its yearly cover (its checkout or a renewal, less a collar tag bought with it),
 * at most `capCents` (the lifetime price due). None without active yearly cover, or when nothing
 * was paid for it.
 */
export async function yearlyCoverCredit(
  source: Database | Transaction,
  petId: number,
  chip: ChipRow,
  capCents: number,
  now = new Date(),
): Promise<number> {
  if (chip.oneTime || !chip.expirationDate || !hasActiveCover(chip, now)) return 0;
  const [last] = await source
    .select({ amountCents: payments.amountCents, withCollarTag: checkoutSessions.withCollarTag, coupon: checkoutSessions.coupon })
    .from(payments)
    .innerJoin(plans, eq(plans.id, payments.planId))
    .leftJoin(checkoutSessions, eq(checkoutSessions.id, payments.providerSessionId))
    .where(and(eq(payments.petId, petId), eq(payments.status, 'paid'), eq(plans.planKey, 'yearly')))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(1);
  if (!last) return 0;
  const tagCents = last.withCollarTag ? (last.coupon ? withCoupon(collarTagPriceCents) : collarTagPriceCents) : 0;
  return unusedCoverCredit(Math.max(0, last.amountCents - tagCents), chip.expirationDate, now, capCents);
}

/** What a plan's checkout charges for the pet's chip: the plan and tag, less the coupon, less the credit of yearly cover it replaces. */
export interface CheckoutPrice {
  coupon: { code: string; percentOff: number } | null;
  /** The plan's price and the tag's. */
  listCents: number;
  couponDiscountCents: number;
  /** Credit for unused yearly cover, on a lifetime plan. */
  creditCents: number;
  totalCents: number;
}

export async function checkoutPrice(
  source: Database | Transaction,
  petId: number,
  plan: { priceCents: number; oneTime: boolean },
  chip: ChipRow,
  collarTagCents: number | null,
): Promise<CheckoutPrice> {
  const coupon = isCouponChip(chip.chipId) ? { code: couponCode, percentOff: couponPercentOff } : null;
  const listCents = plan.priceCents + (collarTagCents ?? 0);
  const afterCoupon = coupon ? withCoupon(listCents) : listCents;
  const creditCents = plan.oneTime ? await yearlyCoverCredit(source, petId, chip, Math.min(plan.priceCents, afterCoupon)) : 0;
  return { coupon, listCents, couponDiscountCents: listCents - afterCoupon, creditCents, totalCents: afterCoupon - creditCents };
}
