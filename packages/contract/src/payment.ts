import { z } from 'zod';
import { idField, idParam, requestObject, textField } from './fields.js';
import { messages } from './messages.js';

/** The QR collar tag sold with a plan (US only), shipping included. */
export const collarTagPriceCents = 2499;

/** The plans owners choose from (pet/plans); planKey of the plans table. */
export const protectionPlanKeys = ['yearly', 'lifetime'] as const;

/** The lost pet alert's price is kept with the plans under this key, and never offered as a plan. */
export const alertPlanKey = 'alert';

export interface Plan {
  id: number;
  planId: string;
  name: string;
  priceId: string | null;
  /** Dollars, as the spec's planPrice. */
  planPrice: number;
  priceCents: number;
  currency: string;
  oneTime: boolean;
}

export const updatePlanSchema = requestObject({
  id: idField(messages.invalidId),
  planId: idField(messages.planNotFound),
});

/** GET checkout/stripe-subscription/{id}: booleans arrive as query text. */
const queryFlag = z
  .enum(['true', 'false'], { error: messages.invalidRequest })
  .default('false')
  .transform((v) => v === 'true');

export const checkoutQuerySchema = requestObject({
  petFlow: queryFlag,
  isTagSelected: queryFlag,
  coupon: textField(40, messages.couponNotEligible).trim().toUpperCase().optional(),
});

/** GET utilities/stripe-dashboard?uid=: the signed-in user's own id. */
export const billingDashboardQuerySchema = requestObject({ uid: idParam() });

/** The card form of the portal's own checkout page (the embedded default, no real charge). */
export const cardSchema = requestObject({
  name: textField(100, messages.cardNameTooLong, messages.cardNameRequired)
    .trim()
    .min(1, { error: messages.cardNameRequired }),
  cardNumber: textField(40, messages.cardNumberInvalid, messages.cardNumberInvalid)
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(z.string({ error: messages.cardNumberInvalid }).regex(/^\d{12,19}$/, { error: messages.cardNumberInvalid })),
  expiry: textField(20, messages.cardExpiryInvalid, messages.cardExpiryInvalid)
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/, { error: messages.cardExpiryInvalid }),
  cvc: textField(10, messages.cardCvcInvalid, messages.cardCvcInvalid).trim().regex(/^\d{3,4}$/, { error: messages.cardCvcInvalid }),
});

/** What the portal's checkout page shows before paying. */
export interface CheckoutOrder {
  sessionId: string;
  petName: string;
  planName: string;
  oneTime: boolean;
  planPriceCents: number;
  coupon: string | null;
  /** The coupon's part. */
  discountCents: number;
  /** Credit for unused yearly cover, on a lifetime plan that replaces it. */
  creditCents: number;
  collarTagCents: number;
  totalCents: number;
  currency: string;
  status: 'open' | 'complete' | 'canceled';
  cancelUrl: string;
  /** Where the buyer goes once it is paid: the Thank You page, or Lost Pet Alert Sent for an alert. */
  successUrl: string;
}

/** GET checkout/lifetime-price/{id}: what lifetime cover costs the pet now (Upgrade to Lifetime, the plan choice). */
export interface LifetimePrice {
  planPriceCents: number;
  coupon: string | null;
  discountCents: number;
  /** The unused part of the yearly cover paid for the pet, taken off. */
  creditCents: number;
  totalCents: number;
  currency: string;
}

/** Payment completion result of spec section 3. */
export interface PaymentCompletion {
  customerEmail: string | null;
  phoneNumber: string | null;
  firstName: string;
  lastName: string;
  customerAddress: { line1: string | null; city: string | null; state: string | null; zipCode: string | null; country: string | null };
  currency: string;
  /** Cents. */
  orderTotal: number;
  paymentId: string | null;
  coupon: string | null;
  tax: number;
  petId: number;
}

/** One protected pet on the owner's billing page and in GET pet/microchip-subscriptions. */
export interface MicrochipSubscription {
  id: string;
  petId: number;
  petName: string;
  chipId: string | null;
  planName: string;
  oneTime: boolean;
  expirationDate: string | null;
  /** active, canceled (runs to its end, no renewal), or expired. */
  status: string;
}

export interface PaymentRecord {
  id: number;
  petName: string | null;
  planName: string | null;
  cardLast4: string | null;
  amountCents: number;
  currency: string;
  status: string;
  coupon: string | null;
  createdAt: string;
}

/** A payment the provider took but the portal did not apply: the administrator refunds it (GET admin/payments-to-refund). */
export interface PaymentToRefund {
  id: number;
  ownerName: string;
  ownerEmail: string;
  petId: number | null;
  petName: string | null;
  amountCents: number;
  currency: string;
  createdAt: string;
  provider: string;
  providerPaymentId: string | null;
  reason: string | null;
}

export interface BillingOverview {
  payments: PaymentRecord[];
  subscriptions: MicrochipSubscription[];
}

/** Money for people: $19.95. */
export function formatMoney(cents: number, currency = 'usd'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}
