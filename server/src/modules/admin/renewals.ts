import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { checkoutSessions } from '../../db/schema.js';
import { loggable } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import type { PaymentService } from '../payments/service.js';

export interface RenewalDeps {
  db: Database;
  payments: Pick<PaymentService, 'cancelSubscription'>;
  log: { error(details: object, message: string): void };
}

/**
 * Stops every yearly renewal still running for a pet that left its payer (transferred or removed): no
 * card is charged again for a pet its holder no longer has. The cover runs to its date. Called after
 * the change is committed; a renewal the provider refuses to stop is logged for the administrator.
 */
export async function stopRenewals({ db, payments, log }: RenewalDeps, session: Session, petId: number): Promise<void> {
  const renewing = await db
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.petId, petId), eq(checkoutSessions.subscriptionStatus, 'active'), isNotNull(checkoutSessions.subscriptionId)));
  for (const checkout of renewing) {
    try {
      await payments.cancelSubscription(session, checkout.id);
    } catch (error) {
      log.error({ err: loggable(error), checkoutId: checkout.id, petId }, 'could not stop the renewal of a pet that left its payer');
    }
  }
}
