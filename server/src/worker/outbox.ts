import type { MailKind } from '@petreg/contract';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { MailServerUnavailableError, RecipientRefusedError, type Mailer } from '../adapters/mail/index.js';
import type { Database } from '../db/client.js';
import { alertEmails, mailOutbox, textOutbox } from '../db/schema.js';
import { noteBouncedEmail } from '../modules/contacts/deliveryFailures.js';
import { hideLinkCodes } from '../modules/users/mailedLinks.js';

/**
 * Account e-mails claimed at a time, sent batch after batch while full ones come (see `sendBatches`):
 * half an alert's batch, as an e-mail from a finder written during a burst waits for the batch in hand.
 */
const BATCH = 100;
/**
 * E-mails that carry a finder's report or number, claimed before any other due e-mail: a finder's
 * report must not wait behind a burst of sign-up confirmations, reminders or a shelter's upload.
 */
const FINDER_MAIL_KINDS: MailKind[] = ['found-report', 'finder-contact', 'found-report-vet'];
/**
 * E-mails in flight at once, for each of the two jobs (account and alert e-mails). The SMTP transport
 * pools 5 connections (nodemailer's default); about three messages a connection keep each busy while
 * the last answer and the database mark are on their way (measured: 5 in flight, 500 messages/s to a
 * local server; 16, 750).
 */
export const MAILS_AT_ONCE = 16;
const MAX_ATTEMPTS = 8;
/** A claim runs out this long after it was made or last renewed: a dead worker's rows are due again within a minute. */
export const LEASE_MS = 45_000;
/** How often a running worker renews the claims it holds. */
export const RENEW_EVERY_MS = 15_000;

/**
 * How a try to send an e-mail or a text ended: taken by the provider, failed for good (refused, or
 * the last attempt), to be tried again, or waiting for a provider out of reach (no attempt used up).
 */
export type SendResult = 'sent' | 'failed' | 'retried' | 'waiting';
/** Hears the result of each try as the worker records it (counted for /metrics). */
export type SendTally = (result: SendResult) => void;
export const uncounted: SendTally = () => {};

/** Minutes to wait before the next try: 1, 2, 4 … capped at an hour. */
const backoffMs = (attempts: number) => Math.min(60, 2 ** (attempts - 1)) * 60_000;

type MailRow = typeof mailOutbox.$inferSelect;

/** The outbox tables: the mail outbox, the alert e-mails and the texts. */
type OutboxTable = typeof mailOutbox | typeof alertEmails | typeof textOutbox;

/**
 * The worker's time, as milliseconds ahead of the database's clock: 0 but in tests, which move time
 * forward. Due times are set and compared on the database's clock, which stamps the rows as they are
 * written, so a row written in the same millisecond as a claim is due, and workers on hosts whose
 * clocks differ agree.
 */
export type Clock = () => number;

/** A worker's clock at the time given: now (none), a moment the run starts at, or a clock that moves during the run. */
export function clockOf(time?: Date | (() => Date)): Clock {
  if (time === undefined) return () => 0;
  if (typeof time === 'function') return () => time().getTime() - Date.now();
  const shift = time.getTime() - Date.now();
  return () => shift;
}

/** The database's time, moved by the worker's clock and `laterMs`. */
export const timeAt = (clock: Clock, laterMs = 0): SQL => sql`now() + ${clock() + laterMs}::double precision * interval '1 millisecond'`;

/**
 * Claims up to `limit` due rows of an outbox: pending ones whose time has come, and sending ones
 * whose claim ran out (the worker died mid-send). Each row is claimed before sending (status
 * 'sending' for a lease its worker renews while it runs, see `holdClaims`) under FOR UPDATE SKIP
 * LOCKED, so two workers never take the same row and a dead worker's claims run out within a minute.
 * Rows go highest `rank` first (true before false, or a number), then by due time, then as written.
 */
export async function claimDue<T extends OutboxTable>(db: Database, table: T, clock: Clock, limit: number, rank?: SQL): Promise<T['$inferSelect'][]> {
  // Both tables have the columns used here; drizzle's builders take one table type at a time.
  const queue = table as unknown as typeof mailOutbox;
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(queue)
      .where(and(inArray(queue.status, ['pending', 'sending']), sql`${queue.nextAttemptAt} <= ${timeAt(clock)}`))
      .orderBy(...(rank ? [desc(rank)] : []), asc(queue.nextAttemptAt), asc(queue.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (rows.length) {
      await tx
        .update(queue)
        .set({ status: 'sending', nextAttemptAt: timeAt(clock, LEASE_MS) })
        .where(inArray(queue.id, rows.map((r) => r.id)));
    }
    return rows as unknown as T['$inferSelect'][];
  });
}

/**
 * Keeps claimed rows claimed while this worker runs: their lease is renewed every RENEW_EVERY_MS
 * until each is let go (sent, failed, handed back) or the run ends. A renewal the database does not
 * take (out of reach) is tried again at the next.
 */
function holdClaims(db: Database, table: OutboxTable, rows: { id: number }[], clock: Clock) {
  const queue = table as unknown as typeof mailOutbox;
  const held = new Set(rows.map((r) => r.id));
  let renewal: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    if (held.size === 0) return;
    renewal = db
      .update(queue)
      .set({ nextAttemptAt: timeAt(clock, LEASE_MS) })
      .where(and(inArray(queue.id, [...held]), eq(queue.status, 'sending')))
      .catch(() => {});
  }, RENEW_EVERY_MS);
  return {
    letGo(id: number) {
      held.delete(id);
    },
    async end() {
      clearInterval(timer);
      held.clear();
      await renewal;
    },
  };
}

/** Rows back in the queue untried, due `laterMs` from now; their attempts stay as they were. */
export async function handBack(db: Database, table: OutboxTable, ids: number[], clock: Clock, laterMs: number, lastError?: string) {
  if (ids.length === 0) return;
  const queue = table as unknown as typeof mailOutbox;
  await db
    .update(queue)
    .set({ status: 'pending', nextAttemptAt: timeAt(clock, laterMs), ...(lastError && { lastError }) })
    .where(inArray(queue.id, ids));
}

/** A failed attempt's outcome: tried again later, with a growing wait, or failed for good after the last attempt. */
export function failedAttempt(attempts: number, error: unknown, clock: Clock) {
  return {
    status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
    attempts,
    lastError: String(error).slice(0, 500),
    nextAttemptAt: timeAt(clock, backoffMs(attempts)),
  };
}

/**
 * Runs `work` over the items, at most `limit` at a time, starting none once `stop` says so; answers those
 * not started. A failing item starts no more either, and its error is thrown once those in flight are
 * through: they hold claims that must not be let go while they send.
 */
export async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>, stop: () => boolean = () => false): Promise<T[]> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    try {
      while (next < items.length && !failure && !stop()) await work(items[next++]!);
    } catch (error) {
      failure ??= { error };
    }
  });
  await Promise.all(lanes);
  if (failure) throw failure.error;
  return items.slice(next);
}

/** How long e-mails wait for a mail server that was out of reach. */
export const SERVER_PAUSE_MS = 60_000;

/** A batch's claims, renewed while it is being sent (see `holdClaims`). */
export type Claims = ReturnType<typeof holdClaims>;

/** How sending a batch ended: through, or stopped by a provider out of reach (the rest waits for it). */
export type BatchOutcome = 'through' | 'provider out of reach';

/**
 * Claims due rows and sends them batch after batch while full batches come, so a burst (a thousand
 * sign-ups' confirmations, a shelter's upload) goes out in one round rather than one batch a tick,
 * and a found report written behind it is handed over in seconds, not minutes. Ends at a batch
 * that is not full, once `stop` is signalled, or when the provider is out of reach: the rest waits
 * for a later round.
 */
export async function sendBatches<T extends OutboxTable>(
  db: Database,
  table: T,
  { clock, size, stop, rank }: { clock: Clock; size: number; stop: AbortSignal | undefined; rank?: SQL },
  send: (rows: T['$inferSelect'][], claims: Claims) => Promise<BatchOutcome>,
): Promise<void> {
  while (!stop?.aborted) {
    const claimed = await claimDue(db, table, clock, size, rank);
    if (claimed.length === 0) return;
    const claims = holdClaims(db, table, claimed, clock);
    let outcome: BatchOutcome;
    try {
      outcome = await send(claimed, claims);
    } finally {
      await claims.end();
    }
    if (outcome === 'provider out of reach' || claimed.length < size) return;
  }
}

/**
 * Sends the e-mails that are due; a failure goes back to 'pending' with a later try, a recipient the
 * mail server refuses for good is bounced (and its account's owner asked about their contacts). While the mail
 * server is out of reach the e-mails wait for it, using up no attempt (a receipt is not lost to an
 * outage of a few hours). Once `stop` is signalled no e-mail is started: those claimed are handed back.
 */
export async function sendDueMail(db: Database, mailer: Mailer, time?: Date | (() => Date), stop?: AbortSignal, tally: SendTally = uncounted): Promise<number> {
  const clock = clockOf(time);
  let sent = 0;
  let serverDown: string | undefined;
  // A failure (the database out of reach) starts no more e-mails either: their marks could not be written.
  let failed = false;
  const stopped = () => failed || serverDown !== undefined || Boolean(stop?.aborted);
  const scrubbed = (mail: MailRow) => ({ text: hideLinkCodes(mail.text), html: mail.html && hideLinkCodes(mail.html) });

  async function send(mail: MailRow) {
    const attempts = mail.attempts + 1;
    try {
      await mailer.send({ to: mail.recipient, subject: mail.subject, text: mail.text, ...(mail.html && { html: mail.html }) });
    } catch (error) {
      if (error instanceof RecipientRefusedError) {
        // A hard bounce: sending again cannot deliver it; the account with the address is asked about its contacts.
        await db.update(mailOutbox).set({ status: 'bounced', attempts, lastError: error.message.slice(0, 500), ...scrubbed(mail) }).where(eq(mailOutbox.id, mail.id));
        await noteBouncedEmail(db, mail.recipient, mail.kind);
        tally('failed');
        return;
      }
      if (!(error instanceof MailServerUnavailableError)) {
        const attempt = failedAttempt(attempts, error, clock);
        await db.update(mailOutbox).set(attempt).where(eq(mailOutbox.id, mail.id));
        tally(attempt.status === 'failed' ? 'failed' : 'retried');
        return;
      }
      serverDown = String(error).slice(0, 500);
      await handBack(db, mailOutbox, [mail.id], clock, SERVER_PAUSE_MS, serverDown);
      tally('waiting');
      return;
    }
    // Sent: the outbox keeps the e-mail for the log, its single-use codes no longer. A mark that fails
    // is no failed attempt: the e-mail stays claimed, and goes again only once its claim runs out.
    await db.update(mailOutbox).set({ status: 'sent', attempts, sentAt: new Date(), ...scrubbed(mail) }).where(eq(mailOutbox.id, mail.id));
    sent++;
    tally('sent');
  }

  const fromFinders = inArray(mailOutbox.kind, FINDER_MAIL_KINDS);
  await sendBatches(db, mailOutbox, { clock, size: BATCH, stop, rank: fromFinders }, async (due, claims) => {
    // One person's e-mails in a batch go one after another, those from a finder first, the others in
    // the order they were written (a confirmation link sent again after the first); different people's
    // go alongside. An e-mail tried again later goes after those written since.
    const byRecipient = new Map<string, MailRow[]>();
    for (const mail of due) {
      const person = mail.recipient.toLowerCase();
      const mails = byRecipient.get(person);
      if (mails) mails.push(mail);
      else byRecipient.set(person, [mail]);
    }
    const heldBack: MailRow[] = [];
    const untried = await forEachLimited(
      [...byRecipient.values()],
      MAILS_AT_ONCE,
      async (mails) => {
        for (const mail of mails) {
          if (stopped()) heldBack.push(mail);
          else
            await send(mail)
              .catch((error: unknown) => {
                failed = true;
                throw error;
              })
              .finally(() => claims.letGo(mail.id));
        }
      },
      stopped,
    );
    await handBack(db, mailOutbox, [...untried.flat(), ...heldBack].map((m) => m.id), clock, serverDown ? SERVER_PAUSE_MS : 0, serverDown);
    return serverDown ? 'provider out of reach' : 'through';
  });
  return sent;
}
