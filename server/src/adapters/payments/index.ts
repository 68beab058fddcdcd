/** What a checkout sells: one plan for one pet, maybe a collar tag, maybe a coupon or a credit on the first payment. */
export interface CheckoutRequest {
  customer: { email: string; name: string; providerCustomerId: string | null };
  pet: { id: number; name: string };
  plan: { name: string; priceCents: number; currency: string; oneTime: boolean; priceId: string | null };
  coupon: { code: string; percentOff: number } | null;
  /** A one-off amount off this checkout (a credit for unused yearly cover), in place of the coupon. */
  discount: { amountOffCents: number; name: string } | null;
  collarTagCents: number | null;
  /** Where the provider sends the buyer after paying; `{CHECKOUT_SESSION_ID}` is replaced by the provider. */
  successUrl: string;
  cancelUrl: string;
  metadata: Record<string, string>;
}

export interface StartedCheckout {
  sessionId: string;
  url: string;
  /** The provider's customer record for the buyer, kept on the user for later checkouts and the billing page. */
  providerCustomerId: string | null;
}

/** A paid checkout, as the provider reports it. */
export interface PaidCheckout {
  sessionId: string;
  paymentId: string | null;
  subscriptionId: string | null;
  cardLast4: string | null;
  amountCents: number;
  currency: string;
  customerName: string | null;
  customerEmail: string | null;
}

/** A renewal payment of a yearly subscription. */
export interface PaidRenewal {
  invoiceId: string;
  subscriptionId: string;
  amountCents: number;
  currency: string;
}

/** An event from the provider that changes what an owner has. */
export type PaymentEvent =
  | { type: 'checkout.completed'; sessionId: string }
  | { type: 'renewal.paid'; renewal: PaidRenewal }
  | { type: 'subscription.ended'; subscriptionId: string }
  | { type: 'ignored' };

export interface PaymentProvider {
  readonly name: 'stripe' | 'local';
  startCheckout(request: CheckoutRequest): Promise<StartedCheckout>;
  /** The provider's own word on a session: its payment when paid, null while it is not. */
  paidCheckout(sessionId: string): Promise<PaidCheckout | null>;
  /** A link to the buyer's billing dashboard at the provider, or null when the portal shows its own. */
  billingDashboardUrl(providerCustomerId: string | null, returnUrl: string): Promise<string | null>;
  cancelSubscription(subscriptionId: string): Promise<void>;
  /** Verifies a webhook's signature and reads what happened; throws when the signature is wrong. */
  readWebhook(rawBody: Buffer, signature: string | undefined): Promise<PaymentEvent>;
}
