import { and, eq, inArray, sql } from 'drizzle-orm';
import { MailServerUnavailableError, RecipientRefusedError, type Mailer } from '../adapters/mail/index.js';
import type { Database } from '../db/client.js';
import { alertEmails, emailUnsubscribes, petAlerts } from '../db/schema.js';
import { alertMessageWriter, readAlerts, type AlertContext, type AlertMailSettings } from '../modules/alerts/messages.js';
import { clockOf, failedAttempt, forEachLimited, handBack, MAILS_AT_ONCE, SERVER_PAUSE_MS, sendBatches, uncounted, type BatchOutcome, type Claims, type SendTally } from './outbox.js';

const BATCH = 200;

type AlertEmailRow = typeof alertEmails.$inferSelect;

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

/** An alert e-mail is due while its alert is out, a thank-you once the pet is found; neither for a removed pet nor to an address that unsubscribed. */
function stillDue(row: AlertEmailRow, alert: AlertContext | undefined, unsubscribed: Set<string>): boolean {
  if (!alert || alert.petRemoved || unsubscribed.has(row.recipient)) return false;
  return row.kind === 'alert' ? alert.status === 'paid' : alert.status === 'found';
}

/**
 * Sends the alert e-mails that are due, batch after batch, through the mail adapter. A row is
 * marked delivered right after the mail server accepts it; a recipient the server refuses for good
 * is bounced (not retried); a temporary refusal (4xx) is tried again later with a growing wait; a
 * mail server out of reach ends the run and the rest waits for it, using up no attempt. With the
 * claim and the unique (alert, kind, recipient) key, a recipient gets each e-mail once, unless the
 * process dies between the server's acceptance and the mark. Once `stop` is signalled no e-mail is
 * started: the run waits for those in flight and hands the rest back, due at once for another worker.
 */
export async function sendDueAlertEmails(
  db: Database,
  mailer: Mailer,
  settings: AlertMailSettings,
  time?: Date | (() => Date),
  stop?: AbortSignal,
  tally: SendTally = uncounted,
): Promise<AlertSendRun> {
  const run: AlertSendRun = { delivered: 0, bounced: 0, retried: 0, waiting: 0, canceled: 0 };
  let serverDown = false;
  const message = alertMessageWriter(settings);
  const clock = clockOf(time);

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
        where ${alertEmails.id} = ${row.id} and ${alertEmails.status} = 'sending'
        returning alert_id, kind, site_id, recipient
      )
      insert into ${alertEmails} (alert_id, kind, site_id, recipient)
      select delivered.alert_id, 'found', delivered.site_id, delivered.recipient
        from delivered, alert
        where delivered.kind = 'alert' and alert.status = 'found'
          and not exists (select 1 from ${emailUnsubscribes} where ${emailUnsubscribes.email} = delivered.recipient)
      on conflict do nothing`);
  }

  async function deliver(row: AlertEmailRow, alert: AlertContext) {
    const attempts = row.attempts + 1;
    try {
      await mailer.send(message(row, alert, new Date(Date.now() + clock())));
    } catch (error) {
      if (error instanceof RecipientRefusedError) {
        await db.update(alertEmails).set({ status: 'bounced', attempts, lastError: error.message.slice(0, 500) }).where(eq(alertEmails.id, row.id));
        run.bounced++;
        tally('failed');
      } else if (error instanceof MailServerUnavailableError) {
        // The server's trouble, not the message's: no attempt is used up, however long it lasts.
        serverDown = true;
        await handBack(db, alertEmails, [row.id], clock, SERVER_PAUSE_MS, String(error).slice(0, 500));
        run.waiting++;
        tally('waiting');
      } else {
        const attempt = failedAttempt(attempts, error, clock);
        await db.update(alertEmails).set(attempt).where(eq(alertEmails.id, row.id));
        run.retried++;
        tally(attempt.status === 'failed' ? 'failed' : 'retried');
      }
      return;
    }
    await markDelivered(row, attempts);
    run.delivered++;
    tally('sent');
  }

  await sendBatches(db, alertEmails, { clock, size: BATCH, stop }, sendClaimed);
  return run;

  async function sendClaimed(claimed: AlertEmailRow[], claims: Claims): Promise<BatchOutcome> {
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
    const untried = await forEachLimited(
      due,
      MAILS_AT_ONCE,
      (row) => deliver(row, alerts.get(row.alertId)!).finally(() => claims.letGo(row.id)),
      () => serverDown || Boolean(stop?.aborted),
    );
    // Due when the mail server may be back; handed back at a stop, due at once.
    await handBack(db, alertEmails, untried.map((r) => r.id), clock, serverDown ? SERVER_PAUSE_MS : 0);
    run.waiting += untried.length;
    // With the mail server out of reach the rest waits for a later run, instead of each message timing out in turn.
    return serverDown ? 'provider out of reach' : 'through';
  }
}
