import Stripe from 'stripe';
import type { CheckoutRequest, PaidCheckout, PaymentEvent, PaymentProvider } from './index.js';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another API address (tests point the SDK at a local fake); unset: Stripe's own. */
  apiUrl?: string;
}

/** Card payments through Stripe Checkout, its Customer Portal, and signed webhooks. */
export function createStripePayments(settings: StripeSettings): PaymentProvider {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : null;
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(api && { host: api.hostname, port: api.port, protocol: api.protocol.replace(':', '') as 'http' | 'https' }),
  });
  const couponIds = new Map<string, string>();

  /** The Stripe coupon for our code: found by its id, created once when missing. */
  async function couponFor(code: string, percentOff: number): Promise<string> {
    const known = couponIds.get(code);
    if (known) return known;
    const coupon = await stripe.coupons.retrieve(code).catch(async (error: unknown) => {
      if ((error as { statusCode?: number }).statusCode !== 404) throw error;
      return stripe.coupons.create({ id: code, percent_off: percentOff, duration: 'once', name: code });
    });
    couponIds.set(code, coupon.id);
    return coupon.id;
  }

  /** A coupon for one checkout only: an amount off, once. */
  async function oneOffCoupon(discount: { amountOffCents: number; name: string }, currency: string): Promise<string> {
    const coupon = await stripe.coupons.create({ amount_off: discount.amountOffCents, currency, duration: 'once', max_redemptions: 1, name: discount.name });
    return coupon.id;
  }

  function lineItems(request: CheckoutRequest): Stripe.Checkout.SessionCreateParams.LineItem[] {
    const { plan } = request;
    const planItem: Stripe.Checkout.SessionCreateParams.LineItem = plan.priceId
      ? { price: plan.priceId, quantity: 1 }
      : {
          quantity: 1,
          price_data: {
            currency: plan.currency,
            unit_amount: plan.priceCents,
            product_data: { name: `${plan.name} for ${request.pet.name}` },
            ...(!plan.oneTime && { recurring: { interval: 'year' as const } }),
          },
        };
    const tag: Stripe.Checkout.SessionCreateParams.LineItem[] = request.collarTagCents
      ? [{ quantity: 1, price_data: { currency: plan.currency, unit_amount: request.collarTagCents, product_data: { name: 'Personalized QR collar tag' } } }]
      : [];
    return [planItem, ...tag];
  }

  return {
    name: 'stripe',

    async startCheckout(request) {
      const customerId =
        request.customer.providerCustomerId ??
        (await stripe.customers.create({ email: request.customer.email, name: request.customer.name })).id;
      const session = await stripe.checkout.sessions.create({
        mode: request.plan.oneTime ? 'payment' : 'subscription',
        customer: customerId,
        line_items: lineItems(request),
        ...(request.coupon && { discounts: [{ coupon: await couponFor(request.coupon.code, request.coupon.percentOff) }] }),
        ...(request.discount && { discounts: [{ coupon: await oneOffCoupon(request.discount, request.plan.currency) }] }),
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        metadata: request.metadata,
        ...(!request.plan.oneTime && { subscription_data: { metadata: request.metadata } }),
      });
      if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
      return { sessionId: session.id, url: session.url, providerCustomerId: customerId };
    },

    async paidCheckout(sessionId): Promise<PaidCheckout | null> {
      const session = await stripe.checkout.sessions.retrieve(sessionId, {
        expand: ['payment_intent.payment_method', 'subscription.default_payment_method'],
      });
      if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') return null;
      const paymentIntent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
      const subscription = typeof session.subscription === 'object' ? session.subscription : null;
      const method = paymentIntent?.payment_method ?? subscription?.default_payment_method ?? null;
      return {
        sessionId: session.id,
        paymentId: paymentIntent?.id ?? (typeof session.payment_intent === 'string' ? session.payment_intent : null),
        subscriptionId: subscription?.id ?? (typeof session.subscription === 'string' ? session.subscription : null),
        cardLast4: typeof method === 'object' && method?.card ? method.card.last4 : null,
        amountCents: session.amount_total ?? 0,
        currency: session.currency ?? 'usd',
        customerName: session.customer_details?.name ?? null,
        customerEmail: session.customer_details?.email ?? null,
      };
    },

    async billingDashboardUrl(providerCustomerId, returnUrl) {
      if (!providerCustomerId) return null;
      const portal = await stripe.billingPortal.sessions.create({ customer: providerCustomerId, return_url: returnUrl });
      return portal.url;
    },

    async cancelSubscription(subscriptionId) {
      await stripe.subscriptions.cancel(subscriptionId);
    },

    async readWebhook(rawBody, signature): Promise<PaymentEvent> {
      // Only the ids are taken from the event; the current state is read back from Stripe.
      const event = await stripe.webhooks.constructEventAsync(rawBody, signature ?? '', settings.webhookSecret);
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded':
          return { type: 'checkout.completed', sessionId: event.data.object.id };
        case 'invoice.paid': {
          const invoice = event.data.object;
          const subscription = invoice.parent?.subscription_details?.subscription;
          if (invoice.billing_reason !== 'subscription_cycle' || !subscription || !invoice.id) return { type: 'ignored' };
          return {
            type: 'renewal.paid',
            renewal: {
              invoiceId: invoice.id,
              subscriptionId: typeof subscription === 'string' ? subscription : subscription.id,
              amountCents: invoice.amount_paid,
              currency: invoice.currency,
            },
          };
        }
        case 'customer.subscription.deleted':
          return { type: 'subscription.ended', subscriptionId: event.data.object.id };
        default:
          return { type: 'ignored' };
      }
    },
  };
}
