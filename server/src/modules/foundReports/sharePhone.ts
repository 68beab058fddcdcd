import { formatPhone, messages, normalisePhone, oneLine, type FoundReportDetail } from '@petreg/contract';
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { foundReports, mailOutbox, textOutbox, users } from '../../db/schema.js';
import { AppError, badRequest, conflict } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { queueTexts } from '../texts/outbox.js';
import { findActionableReport, type FoundInbox } from './inbox.js';

/**
 * What the finder gets: a fixed template naming the pet and the owner's first name only, the owner's
 * number and the owner's line. Nothing else of the owner, and nothing of the finder's own words.
 */
export interface FinderContact {
  ownerFirstName: string;
  petName: string;
  /** As stored (E.164); written for people. */
  ownerPhone: string;
  note: string;
}

function finderContactLines({ ownerFirstName, petName, ownerPhone, note }: FinderContact) {
  const owner = oneLine(ownerFirstName);
  const pet = oneLine(petName);
  return {
    owner,
    pet,
    ask: `${owner}, ${pet}'s owner, read your report and asks you to call or text ${formatPhone(ownerPhone)}.`,
    note: note ? `${owner} adds: "${oneLine(note)}"` : '',
    thanks: `Thank you for helping ${pet} home.`,
  };
}

/** The text to a finder who gave a phone number. */
export function finderContactText(contact: FinderContact): string {
  const lines = finderContactLines(contact);
  return [lines.ask, lines.note, lines.thanks].filter(Boolean).join(' ');
}

/** The e-mail to a finder who gave only an e-mail address: plain text, so no line of it is markup or a link of ours. */
export function finderContactEmail(finderName: string, contact: FinderContact) {
  const lines = finderContactLines(contact);
  return {
    kind: 'finder-contact' as const,
    subject: `${lines.pet}'s owner sent you a phone number`,
    text: `Hello ${oneLine(finderName)},\n\n${lines.ask}\n${lines.note ? `\n${lines.note}\n` : ''}\n${lines.thanks}\n`,
  };
}

export type PhoneSharing = ReturnType<typeof createPhoneSharing>;

/**
 * Contacts one finder number or address gets a day from the whole portal: whoever files a report
 * names the finder's contact, so it may be a stranger's, and owners must not be able to flood it.
 */
export const finderContactsPerDay = 3;

/** Whether the finder's number or address had its contacts of the day; counted under a lock on it, so shares at once cannot pass it. */
async function finderHadContactsToday(tx: Transaction, finder: { phone: string } | { email: string }) {
  const recipient = 'phone' in finder ? finder.phone : finder.email.toLowerCase();
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`finder-contact:${recipient}`}))`);
  const dayAgo = sql`now() - interval '1 day'`;
  const [today] =
    'phone' in finder
      ? await tx
          .select({ sent: count() })
          .from(textOutbox)
          .where(and(eq(textOutbox.recipient, recipient), eq(textOutbox.kind, 'finder-contact'), gt(textOutbox.createdAt, dayAgo)))
      : await tx
          .select({ sent: count() })
          .from(mailOutbox)
          .where(and(sql`lower(${mailOutbox.recipient}) = ${recipient}`, eq(mailOutbox.kind, 'finder-contact'), gt(mailOutbox.createdAt, dayAgo)));
  return today!.sent >= finderContactsPerDay;
}

/**
 * POST found-reports/{id}/share-phone: the owner's number and line go to the finder, by text when
 * the finder gave a phone, else by e-mail; once per report (409 after), so a finder is not sent a
 * stream. The owner needs a verified mobile number on the profile (400 saying so): the portal relays
 * only a number its owner proved, and the finder's contact gets at most 3 of these a day (429).
 * Only while the pet is still the owner's: after a transfer the report is read-only (403).
 */
export function createPhoneSharing(deps: { db: Database; inbox: FoundInbox }) {
  const { db, inbox } = deps;
  return {
    async sharePhone(session: Session, id: number, input: { note: string }): Promise<FoundReportDetail> {
      const report = await findActionableReport(db, session, id);
      if (report.phoneSharedAt) throw conflict(messages.phoneAlreadyShared);
      const [owner] = await db
        .select({ firstName: users.firstName, phoneNumber: users.phoneNumber, phoneVerifiedAt: users.phoneVerifiedAt })
        .from(users)
        .where(eq(users.id, session.userId));
      const ownerPhone = owner?.phoneNumber && normalisePhone(owner.phoneNumber);
      if (!owner || !ownerPhone || !owner.phoneVerifiedAt) throw badRequest(messages.phoneNeededToShare);
      const finderPhone = report.finderPhone && normalisePhone(report.finderPhone);
      if (!finderPhone && !report.finderEmail) throw conflict(messages.finderUnreachable);

      const contact: FinderContact = { ownerFirstName: owner.firstName, petName: report.petName, ownerPhone, note: input.note };
      await db.transaction(async (tx) => {
        if (await finderHadContactsToday(tx, finderPhone ? { phone: finderPhone } : { email: report.finderEmail! })) {
          throw new AppError(429, [messages.finderContactsPerDayExceeded]);
        }
        // Claimed first: of two shares at once, one sends and the other answers 409.
        const [claimed] = await tx
          .update(foundReports)
          .set({ phoneSharedAt: sql`now()`, openedAt: sql`coalesce(${foundReports.openedAt}, now())` })
          .where(and(eq(foundReports.id, report.id), isNull(foundReports.phoneSharedAt)))
          .returning({ id: foundReports.id });
        if (!claimed) throw conflict(messages.phoneAlreadyShared);
        if (finderPhone) {
          await queueTexts(tx, [{ to: finderPhone, kind: 'finder-contact', body: finderContactText(contact), userId: session.userId }]);
        } else {
          await tx.insert(mailOutbox).values({ recipient: report.finderEmail!, ...finderContactEmail(report.finderName, contact) });
        }
      });
      return inbox.open(session, id);
    },
  };
}
