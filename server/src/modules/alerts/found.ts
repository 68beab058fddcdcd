import { messages } from '@petreg/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { alertEmails, emailUnsubscribes, petAlerts, pets } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { findOwnedPet } from '../pets/ownership.js';
import { cancelAlertCheckouts, lockPetAndAlert, type AlertDeps } from './shared.js';

/**
 * Queues the thank-you note of a found pet's alert for each recipient the alert reached (less those
 * who unsubscribed since); once each, by the unique (alert, kind, recipient) key. An alert e-mail
 * the worker marks delivered after this queues its own (see the worker's markDelivered).
 */
const queueFoundEmails = (alertId: number) => sql`
  insert into ${alertEmails} (alert_id, kind, site_id, recipient)
  select ${alertEmails.alertId}, 'found', ${alertEmails.siteId}, ${alertEmails.recipient}
    from ${alertEmails}
    where ${alertEmails.alertId} = ${alertId} and ${alertEmails.kind} = 'alert' and ${alertEmails.status} = 'delivered'
      and not exists (select 1 from ${emailUnsubscribes} where ${emailUnsubscribes.email} = ${alertEmails.recipient})
  on conflict do nothing`;

/**
 * Ends the pet's open alert in the caller's transaction, the pet locked first: the pet is home, and
 * everyone the alert reached is told. Answers false when the pet had no open alert. Mark as found
 * and a found report's "Mark as reunited" both end an alert this way.
 */
export async function endOpenAlert(tx: Transaction, petId: number): Promise<boolean> {
  const alert = await lockPetAndAlert(tx, petId);
  if (!alert) return false;
  const now = new Date();
  await tx.update(petAlerts).set({ status: 'found', foundAt: now }).where(eq(petAlerts.id, alert.id));
  // The pet is home: its public profile stops saying "Last Seen in" and "Lost time" (the alert
  // keeps when and where it went missing), and the next alert's form starts empty.
  const home = { missingDate: null, zipCode: null, incidentDescription: null, updatedAt: now };
  if (alert.status === 'NEW') {
    // Never sent: nobody was told it was lost, so its profile does not say Found either, and its
    // checkout must not send it any more.
    await tx.update(pets).set(home).where(eq(pets.id, petId));
    await cancelAlertCheckouts(tx, alert.id);
    return true;
  }
  await tx.update(pets).set({ ...home, status: 'found', foundDate: now }).where(eq(pets.id, petId));
  // Alerts not yet handed to a mail server would only send people looking for a pet that is home.
  await tx
    .update(alertEmails)
    .set({ status: 'canceled' })
    .where(and(eq(alertEmails.alertId, alert.id), eq(alertEmails.kind, 'alert'), eq(alertEmails.status, 'pending')));
  await tx.execute(queueFoundEmails(alert.id));
  return true;
}

/** Mark as found (spec 4): the alert ends, the pet is home, and everyone alerted is told. */
export function createAlertFound({ db }: AlertDeps) {
  return {
    /** PUT pet/mark-as-found/{petId}: answers the pet's id; 404 "No Alerts found for pet" when no alert is open. */
    async markAsFound(session: Session, petId: number): Promise<{ id: number }> {
      const pet = await findOwnedPet(db, session, petId);
      const ended = await db.transaction((tx) => endOpenAlert(tx, pet.id));
      if (!ended) throw notFound(messages.noAlertsFound);
      return { id: pet.id };
    },
  };
}
