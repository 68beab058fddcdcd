import { normalisePhone } from '@petreg/contract';
import { and, eq, isNull, notInArray, or } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { textOptOuts, textOutbox } from '../../db/schema.js';
import { confirmByReply } from '../contacts/confirmation.js';
import { noteFailedText } from '../contacts/deliveryFailures.js';

/** Twilio's opt-out and opt-in keywords (a whole message, any letter case); Twilio itself answers them. */
const stopWords = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const startWords = new Set(['START', 'YES', 'UNSTOP']);

/** Delivery reports after which no other may change what is known (Twilio's callbacks may come out of order). */
const finalDeliveries = ['delivered', 'undelivered', 'failed', 'read'];
const notDelivered = new Set(['undelivered', 'failed']);
/** Twilio's error code for a recipient who answered STOP. */
const UNSUBSCRIBED = '21610';

export type TextReplies = ReturnType<typeof createTextReplies>;

/** What the SMS provider tells the portal: how each text fared, and what people texted back. */
export function createTextReplies(db: Database) {
  return {
    /**
     * A delivery report for the text Twilio knows by `sid`: recorded on the text; undelivered or
     * failed marks the text failed with Twilio's code (and, on an owner's own number, has them asked about their contacts). Answers false for a SID the portal never sent.
     */
    async recordDelivery(report: { sid: string; status: string; errorCode?: string }): Promise<boolean> {
      const status = report.status.toLowerCase();
      const failed = notDelivered.has(status);
      const [text] = await db
        .update(textOutbox)
        .set({
          deliveryStatus: status,
          ...(failed ? { status: 'failed', lastError: `Not delivered (${status}${report.errorCode ? `, Twilio error ${report.errorCode}` : ''})` } : {}),
        })
        .where(and(eq(textOutbox.providerId, report.sid), or(isNull(textOutbox.deliveryStatus), notInArray(textOutbox.deliveryStatus, finalDeliveries))))
        .returning({ recipient: textOutbox.recipient, userId: textOutbox.userId, kind: textOutbox.kind });
      if (text && report.errorCode === UNSUBSCRIBED) await db.insert(textOptOuts).values({ phone: text.recipient }).onConflictDoNothing();
      else if (text && failed) await noteFailedText(db, text);
      if (text) return true;
      const [known] = await db.select({ id: textOutbox.id }).from(textOutbox).where(eq(textOutbox.providerId, report.sid)).limit(1);
      return Boolean(known);
    },

    /**
     * A text someone sent the portal's number: STOP and its synonyms stop every text to the number,
     * START, YES and UNSTOP lift that, and YES also confirms the number of the backup contacts asked.
     */
    async receive(message: { from: string; body: string }): Promise<void> {
      const phone = normalisePhone(message.from);
      if (!phone) return;
      const word = message.body.trim().toUpperCase();
      if (stopWords.has(word)) {
        await db.insert(textOptOuts).values({ phone }).onConflictDoNothing();
      } else if (startWords.has(word)) {
        await db.delete(textOptOuts).where(eq(textOptOuts.phone, phone));
        if (word === 'YES') await confirmByReply(db, phone);
      }
    },
  };
}
