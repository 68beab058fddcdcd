import { randomBytes } from 'node:crypto';
import type { PaymentProvider } from './index.js';

/** Card numbers the portal's own checkout accepts: the usual provider test cards. */
const TEST_CARDS: Record<string, 'paid' | 'declined'> = {
  '4242424242424242': 'paid',
  '4000056655665556': 'paid',
  '5555555555554444': 'paid',
  '4000000000000002': 'declined',
};

export type TestCharge = { outcome: 'paid'; last4: string } | { outcome: 'declined' } | { outcome: 'not-a-test-card' };

/** What the embedded checkout does with a card: nothing is charged, test numbers decide the outcome. */
export function chargeTestCard(cardNumber: string): TestCharge {
  const outcome = TEST_CARDS[cardNumber];
  if (outcome === 'paid') return { outcome, last4: cardNumber.slice(-4) };
  return { outcome: outcome ?? 'not-a-test-card' };
}

/**
 * The embedded default: the portal serves the checkout page itself and its pay call completes the
 * session through the same completion service the Stripe webhook uses. Nothing leaves the machine.
 */
export function createLocalPayments(publicUrl: string): PaymentProvider {
  return {
    name: 'local',
    async startCheckout() {
      const sessionId = `cs_local_${randomBytes(18).toString('base64url')}`;
      return { sessionId, url: `${publicUrl}/checkout/${sessionId}`, providerCustomerId: null };
    },
    // Local sessions are paid only through the portal's pay call, which completes them itself.
    paidCheckout: async () => null,
    billingDashboardUrl: async () => null,
    // Local subscriptions never charge again, so there is nothing to stop at a provider.
    cancelSubscription: async () => undefined,
    async readWebhook() {
      return { type: 'ignored' };
    },
  };
}
