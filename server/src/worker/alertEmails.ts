import { API_BASE, formatPlace, paths } from '@petreg/contract';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import addressparser from 'nodemailer/lib/addressparser';
import { MailServerUnavailableError, RecipientRefusedError, type Mailer, type MailMessage } from '../adapters/mail/index.js';
import { imageUrl } from '../adapters/storage/images.js';
import type { Database } from '../db/client.js';
import { alertEmails, breeds, emailUnsubscribes, petAlerts, petBreeds, pets, shortLinks, species, zipCodes } from '../db/schema.js';
import { alertEmail, foundEmail, type AlertedPet } from '../modules/alerts/emails.js';
import { formatLocalTime } from '../modules/alerts/localTime.js';
import { claimDue, failedAttempt, forEachLimited } from './outbox.js';

const BATCH = 200;
/** How long the queue waits for a mail server that was out of reach. */
const SERVER_PAUSE_MS = 60_000;
/**
 * Messages in flight at once. The SMTP transport pools 5 connections (nodemailer's default); about
 * three messages a connection keep each busy while the last answer and the database mark are on
 * their way (measured: 5 in flight, 500 messages/s to a local server; 16, 750).
 */
const CONCURRENCY = 16;

export interface AlertMailSettings {
  publicUrl: string;
  supportPhone: string;
  /** MAIL_FROM: its address takes unsubscribe requests by e-mail (the mailto of List-Unsubscribe). */
  mailFrom: string;
}

type AlertEmailRow = typeof alertEmails.$inferSelect;
type AlertContext = AlertedPet & { status: string };

export interface AlertSendRun {
  delivered: number;
  bounced: number;
  /** Failed for this message (a 4xx, say): tried again later, up to the last attempt. */
  retried: number;
  /** Back in the queue for the mail server, which was out of reach: no attempt used up. */
  waiting: number;
  /** No longer due: the pet was found before it went, or the address unsubscribed. */
  canceled: number;
}

/** The pets of the alerts in a batch, read once each, as their e-mails describe them. */
async function readAlerts(db: Database, alertIds: number[], publicUrl: string): Promise<Map<number, AlertContext>> {
  const rows = await db
    .select({ alert: petAlerts, pet: pets, species: species.name, zip: zipCodes, shortCode: shortLinks.code })
    .from(petAlerts)
    .innerJoin(pets, eq(pets.id, petAlerts.petId))
    .leftJoin(species, eq(species.id, pets.speciesId))
    .leftJoin(zipCodes, eq(zipCodes.zip, petAlerts.zipCode))
    .leftJoin(shortLinks, eq(shortLinks.petId, pets.id))
    // A removed pet's alert is no longer due: its e-mails are canceled.
    .where(and(inArray(petAlerts.id, alertIds), isNull(pets.deletedAt)));
  const breedRows = await db
    .select({ petId: petBreeds.petId, name: breeds.name })
    .from(petBreeds)
    .innerJoin(breeds, eq(breeds.id, petBreeds.breedId))
    .where(inArray(petBreeds.petId, rows.map((r) => r.pet.id)))
    .orderBy(asc(breeds.name));
  return new Map(
    rows.map(({ alert, pet, species: speciesName, zip, shortCode }) => {
      const photo = imageUrl('pets', pet.image);
      const profile = shortCode ? `${paths.short}/${shortCode}` : `${paths.petProfiles}/${pet.publicId}`;
      return [
        alert.id,
        {
          status: alert.status,
          name: pet.name,
          species: speciesName,
          breeds: breedRows.filter((b) => b.petId === pet.id).map((b) => b.name),
          sex: pet.sex,
          missingSince: formatLocalTime(alert.missingDate, zip?.state ?? null),
          place: zip ? formatPlace(zip) : alert.zipCode,
          incidentDescription: alert.incidentDescription,
          photoUrl: photo && `${publicUrl}${photo}`,
          profileUrl: `${publicUrl}${profile}`,
        },
      ];
    }),
  );
}

/** An alert e-mail is due while its alert is out, a thank-you once the pet is found; neither to an address that unsubscribed. */
function stillDue(row: AlertEmailRow, alert: AlertContext | undefined, unsubscribed: Set<string>): boolean {
  if (!alert || unsubscribed.has(row.recipient)) return false;
  return row.kind === 'alert' ? alert.status === 'paid' : alert.status === 'found';
}

/**
 * Sends the alert e-mails that are due, batch after batch, through the mail adapter. A row is
 * marked delivered right after the mail server accepts it; a recipient the server refuses for good
 * is bounced (not retried); a temporary refusal (4xx) is tried again later with a growing wait; a
 * mail server out of reach ends the run and the rest waits for it, using up no attempt. With the
 * claim and the unique (alert, kind, recipient) key, a recipient gets each e-mail once, unless the
 * process dies between the server's acceptance and the mark.
 */
export async function sendDueAlertEmails(db: Database, mailer: Mailer, settings: AlertMailSettings, now = new Date()): Promise<AlertSendRun> {
  const run: AlertSendRun = { delivered: 0, bounced: 0, retried: 0, waiting: 0, canceled: 0 };
  let serverDown = false;
  const replyAddress = addressparser(settings.mailFrom, { flatten: true })[0]?.address;
  const api = `${settings.publicUrl}${API_BASE}/email`;

  function message(row: AlertEmailRow, alert: AlertContext): MailMessage {
    const unsubscribeUrl = `${api}/unsubscribe/${row.token}`;
    const content =
      row.kind === 'alert'
        ? alertEmail(alert, { unsubscribeUrl, pixelUrl: `${api}/open/${row.token}.gif`, supportPhone: settings.supportPhone })
        : foundEmail(alert, { unsubscribeUrl });
    const mailto = replyAddress ? `, <mailto:${replyAddress}?subject=unsubscribe%20${row.token}>` : '';
    return {
      to: row.recipient,
      ...content,
      headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>${mailto}`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    };
  }

  /**
   * Marks the row delivered, in one statement. The alert is read under a shared lock, so marking the
   * pet found either waits for this (and then finds the row delivered and thanks its recipient), or
   * went first and this sees the alert found and queues the thank-you itself.
   */
  async function markDelivered(row: AlertEmailRow, attempts: number) {
    await db.execute(sql`
      with alert as (select ${petAlerts.status} as status from ${petAlerts} where ${petAlerts.id} = ${row.alertId} for share),
      delivered as (
        update ${alertEmails} set status = 'delivered', attempts = ${attempts}, delivered_at = now(), last_error = null
        where ${alertEmails.id} = ${row.id}
        returning alert_id, kind, site_id, recipient
      )
      insert into ${alertEmails} (alert_id, kind, site_id, recipient)
      select delivered.alert_id, 'found', delivered.site_id, delivered.recipient
        from delivered, alert
        where delivered.kind = 'alert' and alert.status = 'found'
          and not exists (select 1 from ${emailUnsubscribes} where ${emailUnsubscribes.email} = delivered.recipient)
      on conflict do nothing`);
  }

  /** Rows back in the queue untried, due when the mail server may be back; their attempts stay as they were. */
  async function release(rows: AlertEmailRow[], lastError: string | null) {
    if (rows.length === 0) return;
    await db
      .update(alertEmails)
      .set({ status: 'pending', nextAttemptAt: new Date(now.getTime() + SERVER_PAUSE_MS), ...(lastError && { lastError }) })
      .where(inArray(alertEmails.id, rows.map((r) => r.id)));
  }

  async function deliver(row: AlertEmailRow, alert: AlertContext) {
    const attempts = row.attempts + 1;
    try {
      await mailer.send(message(row, alert));
    } catch (error) {
      if (error instanceof RecipientRefusedError) {
        await db.update(alertEmails).set({ status: 'bounced', attempts, lastError: error.message.slice(0, 500) }).where(eq(alertEmails.id, row.id));
        run.bounced++;
      } else if (error instanceof MailServerUnavailableError) {
        // The server's trouble, not the message's: no attempt is used up, however long it lasts.
        serverDown = true;
        await release([row], String(error).slice(0, 500));
        run.waiting++;
      } else {
        await db.update(alertEmails).set(failedAttempt(attempts, error, now)).where(eq(alertEmails.id, row.id));
        run.retried++;
      }
      return;
    }
    await markDelivered(row, attempts);
    run.delivered++;
  }

  for (;;) {
    const claimed = await claimDue(db, alertEmails, now, BATCH);
    if (claimed.length === 0) break;
    const alerts = await readAlerts(db, [...new Set(claimed.map((r) => r.alertId))], settings.publicUrl);
    const unsubscribedRows = await db
      .select({ email: emailUnsubscribes.email })
      .from(emailUnsubscribes)
      .where(inArray(emailUnsubscribes.email, [...new Set(claimed.map((r) => r.recipient))]));
    const unsubscribed = new Set(unsubscribedRows.map((r) => r.email));
    const isDue = (row: AlertEmailRow) => stillDue(row, alerts.get(row.alertId), unsubscribed);
    const due = claimed.filter(isDue);
    const gone = claimed.filter((row) => !isDue(row));
    if (gone.length) {
      await db
        .update(alertEmails)
        .set({ status: 'canceled' })
        .where(and(inArray(alertEmails.id, gone.map((r) => r.id)), eq(alertEmails.status, 'sending')));
      run.canceled += gone.length;
    }
    const untried = await forEachLimited(due, CONCURRENCY, (row) => deliver(row, alerts.get(row.alertId)!), () => serverDown);
    await release(untried, null);
    run.waiting += untried.length;
    // With the mail server out of reach the rest waits for a later run, instead of each message timing out in turn.
    if (serverDown || claimed.length < BATCH) break;
  }
  return run;
}
