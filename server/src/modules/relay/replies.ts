import { messages, normalisePhone, paths, withId } from '@petreg/contract';
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { alertEmails, foundReports, mailOutbox, petAlerts, pets, sites, users } from '../../db/schema.js';
import { foundReportEmail, foundReportText } from '../foundReports/ownerNotice.js';
import { reportsPerPetPerDay } from '../foundReports/report.js';
import { queueTexts } from '../texts/outbox.js';

/** Replies one professional (one address the alerts went to) may send through the relay in an hour. */
export const repliesPerSenderPerHour = 5;
/** The most of a reply's text kept: a reply is a few lines; the rest is usually the quoted alert. */
export const replyTextMax = 2000;

/** An SMTP refusal: the code and the text the sender's server gets, which name nothing of the owner. */
export class RelayRefusal extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

const refusals = {
  unknown: () => new RelayRefusal(550, '5.1.1 No such recipient here'),
  tooMany: () => new RelayRefusal(450, '4.7.1 Too many replies from this sender, try again later'),
  noText: () => new RelayRefusal(550, '5.6.0 A reply needs a plain text part'),
};

/**
 * A reply's words as the owner reads them: the reply above the quoted alert (from a line "On …
 * wrote:" or "-----Original Message-----", and lines quoted with ">", on), line breaks made \n,
 * other control characters dropped, at most replyTextMax characters.
 */
export function replyWords(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const quoteStart = lines.findIndex((line) => /^On .+wrote:\s*$/.test(line.trim()) || /^-{2,}\s*Original Message\s*-{2,}$/i.test(line.trim()));
  const own = (quoteStart < 0 ? lines : lines.slice(0, quoteStart)).filter((line) => !line.startsWith('>'));
  // eslint-disable-next-line no-control-regex
  const clean = own.join('\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/g, '').replace(/\n{3,}/g, '\n\n').trim();
  const characters = Array.from(clean);
  return characters.length > replyTextMax ? `${characters.slice(0, replyTextMax).join('')}…` : clean;
}

export type AlertReplies = ReturnType<typeof createAlertReplies>;

/**
 * The relay's rules: which reply address is live (the alert e-mail of a lost pet alert still out,
 * its pet not removed, its owner's account on), how many replies a sender may send, and a reply
 * filed as a found report in the owner's inbox, the owner told by e-mail and text as for a finder's
 * report. The professional's own address (where the alert went) is the report's contact, whatever
 * the reply's headers claim.
 */
export function createAlertReplies(deps: { db: Database; publicUrl: string }) {
  const { db } = deps;

  async function liveAlertEmail(tx: Database | Transaction, replyToken: string) {
    const [row] = await tx
      .select({
        id: alertEmails.id,
        recipient: alertEmails.recipient,
        petId: pets.id,
        petName: pets.name,
        ownerId: users.id,
        ownerEmail: users.email,
        ownerFirstName: users.firstName,
        ownerPhone: users.phoneNumber,
        ownerPhoneVerifiedAt: users.phoneVerifiedAt,
        textFoundReports: users.textFoundReports,
        siteName: sites.name,
        sitePhone: sites.phoneNumber,
      })
      .from(alertEmails)
      .innerJoin(petAlerts, eq(petAlerts.id, alertEmails.alertId))
      .innerJoin(pets, eq(pets.id, petAlerts.petId))
      .innerJoin(users, eq(users.id, pets.userId))
      .leftJoin(sites, eq(sites.id, alertEmails.siteId))
      .where(
        and(
          eq(alertEmails.replyToken, replyToken),
          eq(alertEmails.kind, 'alert'),
          eq(petAlerts.status, 'paid'),
          isNull(pets.deletedAt),
          eq(users.isActive, true),
        ),
      );
    return row ?? null;
  }

  /** Whether the sender had its replies of the hour, or the pet its reports of the day. */
  async function overLimits(tx: Database | Transaction, alertEmail: { recipient: string; petId: number }) {
    const [sender] = await tx
      .select({ replies: count() })
      .from(foundReports)
      .innerJoin(alertEmails, eq(alertEmails.id, foundReports.alertEmailId))
      .where(and(eq(alertEmails.recipient, alertEmail.recipient), gt(foundReports.createdAt, sql`now() - interval '1 hour'`)));
    const [pet] = await tx
      .select({ reports: count() })
      .from(foundReports)
      .where(and(eq(foundReports.petId, alertEmail.petId), gt(foundReports.createdAt, sql`now() - interval '1 day'`)));
    return sender!.replies >= repliesPerSenderPerHour || pet!.reports >= reportsPerPetPerDay;
  }

  return {
    /** RCPT TO: the reply token's alert e-mail, or a refusal (unknown or ended: 550; past a limit: 450). */
    async accept(replyToken: string): Promise<void> {
      const alertEmail = await liveAlertEmail(db, replyToken);
      if (!alertEmail) throw refusals.unknown();
      if (await overLimits(db, alertEmail)) throw refusals.tooMany();
    },

    /**
     * The reply, filed: a found report made to the pet's owner, naming the directory site (and its
     * phone) and the address the alert went to, and the owner told. Checked again under a lock on
     * the pet, so replies at once do not pass the limits.
     */
    async file(replyToken: string, text: string | undefined): Promise<void> {
      const words = replyWords(text ?? '');
      if (!words) throw refusals.noText();
      await db.transaction(async (tx) => {
        const alertEmail = await liveAlertEmail(tx, replyToken);
        if (!alertEmail) throw refusals.unknown();
        await tx.select({ id: pets.id }).from(pets).where(eq(pets.id, alertEmail.petId)).for('update');
        if (await overLimits(tx, alertEmail)) throw refusals.tooMany();
        const finder = { name: alertEmail.siteName ?? 'A pet-care professional', phone: alertEmail.sitePhone ? normalisePhone(alertEmail.sitePhone) : null, email: alertEmail.recipient };
        const [report] = await tx
          .insert(foundReports)
          .values({
            petId: alertEmail.petId,
            ownerId: alertEmail.ownerId,
            alertEmailId: alertEmail.id,
            finderName: finder.name,
            finderPhone: finder.phone,
            finderEmail: finder.email,
            message: words,
            location: messages.alertReplyLocation,
          })
          .returning({ id: foundReports.id });
        const reportUrl = `${deps.publicUrl}${withId(paths.clientFoundReports, report!.id)}`;
        const notice = { petName: alertEmail.petName, finder, message: words, reportUrl, alertReply: true };
        await tx.insert(mailOutbox).values({
          recipient: alertEmail.ownerEmail,
          ...foundReportEmail({ ...notice, ownerFirstName: alertEmail.ownerFirstName, where: messages.alertReplyLocation, question: null, answer: null, hasPhoto: false }),
        });
        if (alertEmail.ownerPhone && alertEmail.ownerPhoneVerifiedAt && alertEmail.textFoundReports) {
          await queueTexts(tx, [{ to: alertEmail.ownerPhone, kind: 'found-report', body: foundReportText(notice), userId: alertEmail.ownerId }]);
        }
      });
    },
  };
}
