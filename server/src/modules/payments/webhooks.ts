import { messages } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import { checkoutSessions } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import type { Completion } from './completion.js';
import type { PaymentDeps } from './shared.js';

/** The provider's signed events: a paid checkout, a renewal, a subscription that ended. */
export function createWebhooks({ db, provider }: PaymentDeps, { complete, renew }: Pick<Completion, 'complete' | 'renew'>) {
  return {
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
  };
}
