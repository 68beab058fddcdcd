import { formatPhone, messages, normalisePhone, oneLine, type FoundReportDetail } from '@petreg/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { foundReports, mailOutbox, users } from '../../db/schema.js';
import { badRequest, conflict } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { queueTexts } from '../texts/outbox.js';
import { findOwnReport, type FoundInbox } from './inbox.js';

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
 * POST found-reports/{id}/share-phone: the owner's number and line go to the finder, by text when
 * the finder gave a phone, else by e-mail; once per report (409 after), so a finder is not sent a
 * stream. The owner needs a phone number on the profile (400 saying so).
 */
export function createPhoneSharing(deps: { db: Database; inbox: FoundInbox }) {
  const { db, inbox } = deps;
  return {
    async sharePhone(session: Session, id: number, input: { note: string }): Promise<FoundReportDetail> {
      const report = await findOwnReport(db, session, id);
      if (report.phoneSharedAt) throw conflict(messages.phoneAlreadyShared);
      const [owner] = await db.select({ firstName: users.firstName, phoneNumber: users.phoneNumber }).from(users).where(eq(users.id, session.userId));
      const ownerPhone = owner?.phoneNumber && normalisePhone(owner.phoneNumber);
      if (!owner || !ownerPhone) throw badRequest(messages.phoneNeededToShare);
      const finderPhone = report.finderPhone && normalisePhone(report.finderPhone);
      if (!finderPhone && !report.finderEmail) throw conflict(messages.finderUnreachable);

      const contact: FinderContact = { ownerFirstName: owner.firstName, petName: report.petName, ownerPhone, note: input.note };
      await db.transaction(async (tx) => {
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
