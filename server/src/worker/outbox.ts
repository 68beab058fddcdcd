import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { MailServerUnavailableError, type Mailer } from '../adapters/mail/index.js';
import type { Database } from '../db/client.js';
import { alertEmails, mailOutbox } from '../db/schema.js';
import { hideLinkCodes } from '../modules/users/mailedLinks.js';

const BATCH = 20;
const MAX_ATTEMPTS = 8;
/** A claimed message not marked sent by then (the worker died) is due again. */
const CLAIM_MS = 10 * 60_000;

/** Minutes to wait before the next try: 1, 2, 4 … capped at an hour. */
const backoffMs = (attempts: number) => Math.min(60, 2 ** (attempts - 1)) * 60_000;

/** The outbox tables: the mail outbox, and the alert e-mails. */
type OutboxTable = typeof mailOutbox | typeof alertEmails;

/**
 * Claims up to `limit` due rows of an outbox: pending ones whose time has come, and sending ones
 * whose claim ran out (the worker died mid-send). Each row is claimed before sending (status
 * 'sending' until a deadline) under FOR UPDATE SKIP LOCKED, so two workers never take the same row
 * and a crashed worker's claim runs out.
 */
export async function claimDue<T extends OutboxTable>(db: Database, table: T, now: Date, limit: number): Promise<T['$inferSelect'][]> {
  // Both tables have the columns used here; drizzle's builders take one table type at a time.
  const queue = table as unknown as typeof mailOutbox;
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(queue)
      .where(and(inArray(queue.status, ['pending', 'sending']), lte(queue.nextAttemptAt, now)))
      .orderBy(asc(queue.nextAttemptAt), asc(queue.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (rows.length) {
      await tx
        .update(queue)
        .set({ status: 'sending', nextAttemptAt: new Date(now.getTime() + CLAIM_MS) })
        .where(inArray(queue.id, rows.map((r) => r.id)));
    }
    return rows as unknown as T['$inferSelect'][];
  });
}

/** A failed attempt's outcome: tried again later, with a growing wait, or failed for good after the last attempt. */
export function failedAttempt(attempts: number, error: unknown, now: Date) {
  return {
    status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
    attempts,
    lastError: String(error).slice(0, 500),
    nextAttemptAt: new Date(now.getTime() + backoffMs(attempts)),
  };
}

/** Runs `work` over the items, at most `limit` at a time, starting none once `stop` says so; answers those not started. */
export async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>, stop: () => boolean = () => false): Promise<T[]> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && !stop()) await work(items[next++]!);
  });
  await Promise.all(lanes);
  return items.slice(next);
}

/** How long e-mails wait for a mail server that was out of reach. */
export const SERVER_PAUSE_MS = 60_000;

/**
 * Sends the e-mails that are due; a failure goes back to 'pending' with a later try. While the mail
 * server is out of reach the e-mails wait for it, using up no attempt (a receipt is not lost to an
 * outage of a few hours).
 */
export async function sendDueMail(db: Database, mailer: Mailer, now = new Date()): Promise<number> {
  const due = await claimDue(db, mailOutbox, now, BATCH);
  let sent = 0;
  for (const [index, mail] of due.entries()) {
    const attempts = mail.attempts + 1;
    try {
      await mailer.send({ to: mail.recipient, subject: mail.subject, text: mail.text, ...(mail.html && { html: mail.html }) });
      // Sent: the outbox keeps the e-mail for the log, its single-use codes no longer.
      const scrubbed = { text: hideLinkCodes(mail.text), html: mail.html && hideLinkCodes(mail.html) };
      await db.update(mailOutbox).set({ status: 'sent', attempts, sentAt: new Date(), ...scrubbed }).where(eq(mailOutbox.id, mail.id));
      sent++;
    } catch (error) {
      if (error instanceof MailServerUnavailableError) {
        const waiting = due.slice(index).map((m) => m.id);
        await db
          .update(mailOutbox)
          .set({ status: 'pending', nextAttemptAt: new Date(now.getTime() + SERVER_PAUSE_MS), lastError: String(error).slice(0, 500) })
          .where(inArray(mailOutbox.id, waiting));
        break;
      }
      await db.update(mailOutbox).set(failedAttempt(attempts, error, now)).where(eq(mailOutbox.id, mail.id));
    }
  }
  return sent;
}
