import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { checkoutSessions, petAlerts, pets } from '../../db/schema.js';
import type { PaymentService } from '../payments/service.js';

/** What every part of the alerts module works with. */
export interface AlertDeps {
  db: Database;
  /** Opens an alert's checkout with the configured payment provider. */
  payments: Pick<PaymentService, 'openCheckout'>;
  publicUrl: string;
  /** Signs the preferences links of alert e-mails. */
  secret: string;
  /** Hears each alert's fan-out size (counted for /metrics). */
  onFanOut?: (recipients: number) => void;
}

export type AlertRow = typeof petAlerts.$inferSelect;

/** The pet's open alert (waiting for payment, or sent and not found), locked when asked: a pet has one at most. */
export async function openAlertOf(db: Database | Transaction, petId: number, options: { lock?: boolean } = {}): Promise<AlertRow | undefined> {
  const query = db
    .select()
    .from(petAlerts)
    .where(and(eq(petAlerts.petId, petId), inArray(petAlerts.status, ['NEW', 'paid'])))
    .orderBy(desc(petAlerts.id))
    .limit(1);
  const [alert] = options.lock ? await query.for('update') : await query;
  return alert;
}

/** Locks the pet (as every change of its alert, chip or plan does first) and reads its open alert. */
export async function lockPetAndAlert(tx: Transaction, petId: number): Promise<AlertRow | undefined> {
  await tx.select({ id: pets.id }).from(pets).where(eq(pets.id, petId)).for('update');
  return openAlertOf(tx, petId, { lock: true });
}

/** An alert that no longer waits for payment (sent free, or the pet found): its open checkouts can no longer be paid here. */
export async function cancelAlertCheckouts(tx: Transaction, alertId: number): Promise<void> {
  await tx
    .update(checkoutSessions)
    .set({ status: 'canceled' })
    .where(and(eq(checkoutSessions.alertId, alertId), eq(checkoutSessions.status, 'open')));
}
