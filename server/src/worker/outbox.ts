import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Mailer } from '../adapters/mail/index.js';
import type { Database } from '../db/client.js';
import { mailOutbox } from '../db/schema.js';

const BATCH = 20;
const MAX_ATTEMPTS = 8;
/** A claimed message not marked sent by then (the worker died) is due again. */
const CLAIM_MS = 10 * 60_000;

/** Minutes to wait before the next try: 1, 2, 4 … capped at an hour. */
const backoffMs = (attempts: number) => Math.min(60, 2 ** (attempts - 1)) * 60_000;

/**
 * Sends the e-mails that are due. Each row is claimed before sending (status 'sending' until a
 * deadline), so two workers never send the same message and a crashed worker's claim runs out;
 * a failure goes back to 'pending' with a later try.
 */
export async function sendDueMail(db: Database, mailer: Mailer, now = new Date()): Promise<number> {
  const due = await db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(mailOutbox)
      .where(and(inArray(mailOutbox.status, ['pending', 'sending']), lte(mailOutbox.nextAttemptAt, now)))
      .orderBy(asc(mailOutbox.id))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    if (rows.length) {
      await tx
        .update(mailOutbox)
        .set({ status: 'sending', nextAttemptAt: new Date(now.getTime() + CLAIM_MS) })
        .where(inArray(mailOutbox.id, rows.map((r) => r.id)));
    }
    return rows;
  });
  let sent = 0;
  for (const mail of due) {
    const attempts = mail.attempts + 1;
    try {
      await mailer.send({ to: mail.recipient, subject: mail.subject, text: mail.text, ...(mail.html && { html: mail.html }) });
      await db.update(mailOutbox).set({ status: 'sent', attempts, sentAt: new Date() }).where(eq(mailOutbox.id, mail.id));
      sent++;
    } catch (error) {
      await db
        .update(mailOutbox)
        .set({
          status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
          attempts,
          lastError: String(error).slice(0, 500),
          nextAttemptAt: new Date(now.getTime() + backoffMs(attempts)),
        })
        .where(eq(mailOutbox.id, mail.id));
    }
  }
  return sent;
}
