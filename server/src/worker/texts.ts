import type { TextKind } from '@petreg/contract';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { NumberRefusedError, TextOutcomeUnknownError, TextProviderUnavailableError, type Texter } from '../adapters/sms/index.js';
import type { Database } from '../db/client.js';
import { textOptOuts, textOutbox } from '../db/schema.js';
import { noteFailedText } from '../modules/contacts/deliveryFailures.js';
import { hideTextCodes } from '../modules/texts/outbox.js';
import { clockOf, failedAttempt, forEachLimited, handBack, SERVER_PAUSE_MS, sendBatches, uncounted, type SendTally } from './outbox.js';

const BATCH = 20;
/** Texts that carry a finder's report or number: claimed before any other due text. */
const FINDER_TEXT_KINDS: TextKind[] = ['found-report', 'found-report-backup', 'finder-contact'];
/**
 * The order due texts are claimed in: a finder's first, then a phone code (its owner waits on the
 * screen for it), then the rest by due time. The contact checks are queued up to 200 a minute; a found
 * report's text written behind them waits for the batch in hand at most, not for them all.
 */
const urgency = sql`case when ${inArray(textOutbox.kind, FINDER_TEXT_KINDS)} then 2 when ${eq(textOutbox.kind, 'phone-code')} then 1 else 0 end`;

type TextRow = typeof textOutbox.$inferSelect;

/**
 * The provider's id for a text whose last hand-over timed out, when the provider did take it then:
 * one of the texts it lists for the number with this body since that attempt that no other row of
 * the outbox already holds (an earlier text with the same words is not this one). Null: not taken,
 * or a texter that cannot be asked.
 */
async function takenBefore(db: Database, texter: Texter, text: TextRow): Promise<string | null> {
  if (!text.outcomeUnknownSince || !texter.findSent) return null;
  const candidates = await texter.findSent({ to: text.recipient, body: text.body }, text.outcomeUnknownSince);
  if (candidates.length === 0) return null;
  const known = await db
    .select({ providerId: textOutbox.providerId })
    .from(textOutbox)
    .where(and(inArray(textOutbox.providerId, candidates), ne(textOutbox.id, text.id)));
  const taken = new Set(known.map((k) => k.providerId));
  return candidates.find((sid) => !taken.has(sid)) ?? null;
}
/** Texts handed to the provider at once: a found report must not queue behind a run of codes. */
const TEXTS_AT_ONCE = 4;

export interface TextSendRun {
  sent: number;
  /** Not sent: the number answered STOP. */
  canceled: number;
}

/**
 * Sends the texts that are due through the SMS adapter, like the mail outbox: each claimed before
 * sending, marked sent with the provider's id, tried again later with a growing wait, failed at once
 * when the provider refuses the number for good, and waiting (no attempt used) while the provider is
 * out of reach; a text to an owner's own number that fails for good has the owner asked about their
 * contacts. A number that answered STOP gets nothing (one the provider says answered STOP is
 * recorded so). A text that ends (sent, failed or canceled) keeps no code; one to be tried again keeps
 * its body until then. A text whose hand-over timed out is looked up at the provider before it is
 * sent again, and recorded sent (with the provider's id) if the provider had taken it, so a timeout
 * after the provider's acceptance does not text the person twice. Once `stop` is signalled no text is started.
 */
export async function sendDueTexts(
  db: Database,
  texter: Texter,
  time?: Date | (() => Date),
  stop?: AbortSignal,
  tally: SendTally = uncounted,
): Promise<TextSendRun> {
  const clock = clockOf(time);
  const run: TextSendRun = { sent: 0, canceled: 0 };
  let providerDown: string | undefined;
  await sendBatches(db, textOutbox, { clock, size: BATCH, stop, rank: urgency }, async (due, claims) => {
    const optedOut = new Set(
      (await db.select({ phone: textOptOuts.phone }).from(textOptOuts).where(inArray(textOptOuts.phone, [...new Set(due.map((t) => t.recipient))]))).map((o) => o.phone),
    );
    const untried = await forEachLimited(
      due,
      TEXTS_AT_ONCE,
      async (text) => {
        const attempts = text.attempts + 1;
        const startedAt = new Date();
        try {
          if (optedOut.has(text.recipient)) {
            await db
              .update(textOutbox)
              .set({ status: 'canceled', lastError: 'The number answered STOP.', body: hideTextCodes(text.kind, text.body) })
              .where(eq(textOutbox.id, text.id));
            run.canceled++;
            return;
          }
          // A previous hand-over timed out: the provider may have the text already, and then it is not sent again.
          const providerId = (await takenBefore(db, texter, text)) ?? (await texter.send({ to: text.recipient, body: text.body })).providerId;
          await db
            .update(textOutbox)
            .set({ status: 'sent', attempts, sentAt: new Date(), providerId, body: hideTextCodes(text.kind, text.body) })
            .where(eq(textOutbox.id, text.id));
          run.sent++;
          tally('sent');
        } catch (error) {
          if (error instanceof TextProviderUnavailableError) {
            providerDown = String(error).slice(0, 500);
            if (error instanceof TextOutcomeUnknownError) {
              // From the first such attempt on: the provider is asked about every one since.
              await db
                .update(textOutbox)
                .set({ outcomeUnknownSince: sql`coalesce(${textOutbox.outcomeUnknownSince}, ${startedAt.toISOString()}::timestamptz)` })
                .where(eq(textOutbox.id, text.id));
            }
            await handBack(db, textOutbox, [text.id], clock, SERVER_PAUSE_MS, providerDown);
            tally('waiting');
          } else if (error instanceof NumberRefusedError) {
            if (error.optedOut) await db.insert(textOptOuts).values({ phone: text.recipient }).onConflictDoNothing();
            await db
              .update(textOutbox)
              .set({ status: 'failed', attempts, lastError: String(error).slice(0, 500), body: hideTextCodes(text.kind, text.body) })
              .where(eq(textOutbox.id, text.id));
            if (!error.optedOut) await noteFailedText(db, text);
            tally('failed');
          } else {
            const attempt = failedAttempt(attempts, error, clock);
            // Given up: the text is final, so it keeps no code either.
            const body = attempt.status === 'failed' ? hideTextCodes(text.kind, text.body) : text.body;
            await db.update(textOutbox).set({ ...attempt, body }).where(eq(textOutbox.id, text.id));
            if (attempt.status === 'failed') await noteFailedText(db, text);
            tally(attempt.status === 'failed' ? 'failed' : 'retried');
          }
        } finally {
          claims.letGo(text.id);
        }
      },
      () => providerDown !== undefined || Boolean(stop?.aborted),
    );
    await handBack(db, textOutbox, untried.map((t) => t.id), clock, providerDown ? SERVER_PAUSE_MS : 0, providerDown);
    return providerDown ? 'provider out of reach' : 'through';
  });
  return run;
}
