import { messages, paths } from '@petreg/contract';
import { and, eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { mailOutbox, petAlerts, pets, users } from '../../db/schema.js';
import { conflict } from '../../errors.js';
import { findZip } from '../../geography.js';
import { queueTexts } from '../texts/outbox.js';
import { alertSentEmail, alertSentText } from './emails.js';
import { writeAlertRecipients } from './recipients.js';

/**
 * Sends a NEW alert, inside the transaction that pays for it (or finds it free): it becomes paid,
 * the pet is reported missing where and when the alert says, one e-mail row is written per
 * recipient, and the owner's confirmation is queued. The worker sends the rows. Answers how many
 * professionals the alert goes to.
 */
export async function sendAlert(
  tx: Transaction,
  alertId: number,
  options: {
    publicUrl: string;
    payment: { amountCents: number; currency: string } | null;
    /** Hears how many professionals the alert goes to (counted for /metrics, before the transaction commits). */
    onFanOut?: (recipients: number) => void;
  },
): Promise<number> {
  const now = new Date();
  const [alert] = await tx
    .update(petAlerts)
    .set({ status: 'paid', sentAt: now })
    .where(and(eq(petAlerts.id, alertId), eq(petAlerts.status, 'NEW')))
    .returning();
  if (!alert) throw conflict(messages.alertNotAwaitingPayment);
  const [pet] = await tx
    .update(pets)
    .set({
      status: 'paid',
      missingDate: alert.missingDate,
      zipCode: alert.zipCode,
      incidentDescription: alert.incidentDescription,
      foundDate: null,
      updatedAt: now,
    })
    .where(eq(pets.id, alert.petId))
    .returning({ name: pets.name, userId: pets.userId });
  const zip = await findZip(tx, alert.zipCode);
  const recipients = await writeAlertRecipients(tx, alert, zip, now);
  await tx.update(petAlerts).set({ recipientsCount: recipients }).where(eq(petAlerts.id, alert.id));
  options.onFanOut?.(recipients);
  const [owner] = await tx
    .select({ email: users.email, firstName: users.firstName, phone: users.phoneNumber, phoneVerifiedAt: users.phoneVerifiedAt, notifyBySms: users.notifyBySms })
    .from(users)
    .where(eq(users.id, pet!.userId));
  const confirmation = {
    firstName: owner!.firstName,
    petName: pet!.name,
    place: zip?.place ?? alert.zipCode,
    recipients,
    payment: options.payment,
    analyticsUrl: `${options.publicUrl}${paths.clientAddAlert}`,
  };
  await tx.insert(mailOutbox).values({ recipient: owner!.email, ...alertSentEmail(confirmation) });
  // And a text, when the owner asked for SMS notifications and proved the number.
  if (owner!.notifyBySms && owner!.phone && owner!.phoneVerifiedAt) {
    await queueTexts(tx, [{ to: owner!.phone, kind: 'alert-sent', userId: pet!.userId, body: alertSentText(confirmation) }]);
  }
  return recipients;
}
