import { createBilling } from './billing.js';
import { createCheckout } from './checkout.js';
import { createCompletion } from './completion.js';
import { createLocalCheckout } from './localCheckout.js';
import type { PaymentDeps } from './shared.js';
import { createSweep } from './sweep.js';
import { createWebhooks } from './webhooks.js';

export type PaymentService = ReturnType<typeof createPaymentService>;

/** The payments module, one part per use case over the same dependencies. */
export function createPaymentService(deps: PaymentDeps) {
  const completion = createCompletion(deps);
  const { complete, stopReplacedSubscriptions, completionFor } = completion;
  return {
    complete,
    stopReplacedSubscriptions,
    completionFor,
    ...createCheckout(deps),
    ...createLocalCheckout(deps, completion),
    ...createWebhooks(deps, completion),
    ...createBilling(deps),
    ...createSweep(deps),
  };
}
