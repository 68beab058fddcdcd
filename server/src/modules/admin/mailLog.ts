import {
  mailLogPageSize,
  messages,
  oneLine,
  type MailKind,
  type MailLogEntry,
  type MailLogMessage,
  type MailLogPage,
  type MailQueue,
  type MailStatus,
  type TextKind,
} from '@petreg/contract';
import { eq, sql, type SQL } from 'drizzle-orm';
import { recordAudit } from '../../db/audit.js';
import { queryRows } from '../../db/client.js';
import { containsPattern } from '../../db/like.js';
import { countedMatches, matchCount } from '../../db/matchCount.js';
import { gatherStatisticsWhenDue, hasTrigram, readByTrigramIndexes, type SearchedDatabase } from '../../db/searchPlans.js';
import { alertEmails, alertRecipientAddresses, mailOutbox, textOutbox } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { noteBouncedEmail } from '../contacts/deliveryFailures.js';
import { hideLinkCodes } from '../users/mailedLinks.js';
import { hideTextCodes } from '../texts/outbox.js';
import { alertMessageWriter, readAlerts, type AlertMailSettings } from '../alerts/messages.js';

export interface MailLogDeps {
  database: SearchedDatabase;
  alertMail: AlertMailSettings;
  /** Drops the cached user objects of accounts a bounce changed. */
  forget: (userId: number) => void;
}

export type MailLog = ReturnType<typeof createMailLog>;

/** A row of any queue, as the log reads it; an alert e-mail's subject and text are rendered from its alert. */
interface LoggedMail {
  queue: MailQueue;
  id: number;
  recipient: string;
  kind: MailKind | TextKind;
  status: MailStatus;
  deliveryStatus: string | null;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
  subject: string | null;
  text: string | null;
  alertId: number | null;
  token: string | null;
  replyToken: string | null;
}

/** Digits enough to be part of a phone number: the query then also matches texts' numbers typed any way ("(314) 555-01"). */
const PHONE_DIGITS_MIN = 4;

/**
 * The three queues as one list, those whose recipient has the query in its address (or, for a text,
 * its number's digits) when one is given. The mail outbox keeps each e-mail as written, the texts
 * likewise; an alert e-mail is rendered when sent (each recipient has an own pixel and unsubscribe
 * address), so the log renders it again. Alert e-mails are searched through the addresses they went
 * to (alertRecipientAddresses), then by address.
 */
function loggedMail(query?: string): SQL {
  const pattern = query ? containsPattern(query) : null;
  const digits = query?.replace(/\D/g, '') ?? '';
  const byPhone = digits.length >= PHONE_DIGITS_MIN && /^[\d\s()+.-]+$/.test(query!) ? sql` or recipient like ${containsPattern(digits)}` : sql``;
  const outboxMatches = pattern ? sql`where recipient ilike ${pattern}` : sql``;
  const alertMatches = pattern
    ? sql`where recipient in (select ${alertRecipientAddresses.address} from ${alertRecipientAddresses} where ${alertRecipientAddresses.address} ilike ${pattern})`
    : sql``;
  const textMatches = pattern ? sql`where (recipient ilike ${pattern}${byPhone})` : sql``;
  return sql`
  select 'outbox' as queue, id, recipient, kind, status, null::text as delivery_status, attempts, last_error, created_at, sent_at, subject, text, null::integer as alert_id, null::uuid as token, null::text as reply_token
    from ${mailOutbox} ${outboxMatches}
  union all
  select 'alert', id, recipient, kind, status, null, attempts, last_error, created_at, delivered_at, null, null, alert_id, token, reply_token
    from ${alertEmails} ${alertMatches}
  union all
  select 'text', id, recipient, kind, status, delivery_status, attempts, last_error, created_at, sent_at, null, body, null, null, null
    from ${textOutbox} ${textMatches}`;
}

const queueTables = { outbox: mailOutbox, alert: alertEmails, text: textOutbox } as const;

/** A text's first words, its codes hidden, stand for the subject it lacks. */
const SUBJECT_OF_TEXT_MAX = 80;
function subjectOfText(kind: TextKind, body: string) {
  const line = oneLine(hideTextCodes(kind, body));
  return line.length > SUBJECT_OF_TEXT_MAX ? `${line.slice(0, SUBJECT_OF_TEXT_MAX - 1)}…` : line;
}

interface LoggedMailRow {
  queue: MailQueue;
  id: number;
  recipient: string;
  kind: MailKind | TextKind;
  status: MailStatus;
  delivery_status: string | null;
  attempts: number;
  last_error: string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
  subject: string | null;
  text: string | null;
  alert_id: number | null;
  token: string | null;
  reply_token: string | null;
}

const dateOf = (value: Date | string | null) => (value === null ? null : new Date(value));

function fromRow(row: LoggedMailRow): LoggedMail {
  return {
    queue: row.queue,
    id: row.id,
    recipient: row.recipient,
    kind: row.kind,
    status: row.status,
    deliveryStatus: row.delivery_status,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: dateOf(row.created_at)!,
    sentAt: dateOf(row.sent_at),
    subject: row.subject,
    text: row.text,
    alertId: row.alert_id,
    token: row.token,
    replyToken: row.reply_token,
  };
}

/** The mail log (admin-send-email): every e-mail the portal sent or will send, one opened, a failed one sent again. */
export function createMailLog({ database, alertMail, forget }: MailLogDeps) {
  const { db } = database;
  const writeAlertMessage = alertMessageWriter(alertMail);

  /** Subjects and texts for the alert e-mails among `mails`, from their alerts as they are now. */
  async function rendered(mails: LoggedMail[]): Promise<Map<LoggedMail, { subject: string; text: string }>> {
    const fromAlerts = mails.filter((mail) => mail.queue === 'alert');
    const alerts = fromAlerts.length ? await readAlerts(db, [...new Set(fromAlerts.map((mail) => mail.alertId!))], alertMail.publicUrl) : new Map();
    const written = new Map<LoggedMail, { subject: string; text: string }>();
    for (const mail of mails) {
      const alert = mail.queue === 'alert' ? alerts.get(mail.alertId!) : undefined;
      if (alert) {
        written.set(mail, writeAlertMessage({ id: mail.id, kind: mail.kind as MailKind, token: mail.token!, replyToken: mail.replyToken!, recipient: mail.recipient }, alert));
      }
      else if (mail.queue === 'text') written.set(mail, { subject: subjectOfText(mail.kind as TextKind, mail.text ?? ''), text: hideTextCodes(mail.kind as TextKind, mail.text ?? '') });
      else written.set(mail, { subject: mail.subject ?? '', text: mail.text ?? '' });
    }
    return written;
  }

  function entryOf(mail: LoggedMail, subject: string): MailLogEntry {
    return {
      queue: mail.queue,
      id: mail.id,
      recipient: mail.recipient,
      // A subject stored before names were kept to one line shows on one line.
      subject: oneLine(subject),
      kind: mail.kind,
      status: mail.status,
      deliveryStatus: mail.deliveryStatus,
      attempts: mail.attempts,
      lastError: mail.lastError,
      createdAt: mail.createdAt.toISOString(),
      sentAt: mail.sentAt?.toISOString() ?? null,
    };
  }

  async function find(queue: MailQueue, id: number): Promise<LoggedMail> {
    const [row] = await queryRows<LoggedMailRow>(db, sql`select * from (${loggedMail()}) mail where queue = ${queue} and id = ${id}`);
    if (!row) throw notFound(messages.mailNotFound);
    return fromRow(row);
  }

  return {
    /** GET admin/mail: newest first, a page at a time; the query matches part of the recipient's address or number. */
    async list(query: { query?: string; page: number }): Promise<MailLogPage> {
      const matching = loggedMail(query.query);
      // On PGlite, among 23,000 addresses: part of one took 45 ms with the addresses read in full, 14 ms
      // through their trigram index; a part every address holds ("example") 355 ms looked up address by
      // address, as the planner guessed a handful, 320 ms planned with the addresses' statistics, and
      // 185 ms with those and through the index.
      if (query.query) await gatherStatisticsWhenDue(database, alertRecipientAddresses);
      const { counted, rows } = await readByTrigramIndexes(database, Boolean(query.query && hasTrigram.test(query.query)), async (reader) => {
        const [counted] = await queryRows<{ total: number }>(reader, matchCount(sql`select 1 from (${matching}) mail`));
        const rows = await queryRows<LoggedMailRow>(
          reader,
          sql`select * from (${matching}) mail order by created_at desc, queue, id desc
            limit ${mailLogPageSize} offset ${(query.page - 1) * mailLogPageSize}`,
        );
        return { counted: counted!, rows };
      });
      const mails = rows.map(fromRow);
      const written = await rendered(mails);
      return { items: mails.map((mail) => entryOf(mail, written.get(mail)!.subject)), ...countedMatches(counted.total) };
    },

    /**
     * GET admin/mail/{queue}/{id}: the e-mail with its plain text (never the HTML: an alert's open
     * pixel would count the administrator), its links' single-use codes hidden.
     */
    async open(queue: MailQueue, id: number): Promise<MailLogMessage> {
      const mail = await find(queue, id);
      const { subject, text } = (await rendered([mail])).get(mail)!;
      return { ...entryOf(mail, subject), text: hideLinkCodes(text) };
    },

    /** POST admin/mail/{queue}/{id}/resend: a failed e-mail or text goes back in its queue with fresh attempts. */
    async resend(session: Session, queue: MailQueue, id: number): Promise<MailLogEntry> {
      const table = queueTables[queue];
      // Due on the database's clock, which the worker's claims go by; a text's old delivery report no longer holds.
      const again = { status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, lastError: null, ...(queue === 'text' ? { deliveryStatus: null } : {}) };
      const [resent] = await db.transaction(async (tx) => {
        const queued = await tx
          .update(table)
          .set(again)
          .where(sql`${table.id} = ${id} and ${table.status} = 'failed'`)
          .returning({ id: table.id });
        if (queued.length === 0) {
          const [exists] = await tx.select({ id: table.id }).from(table).where(eq(table.id, id));
          throw exists ? badRequest(messages.mailNotFailed) : notFound(messages.mailNotFound);
        }
        await recordAudit(tx, { actorUserId: session.userId, action: 'mail.resend', entity: `mail_${queue}`, entityId: id, before: { status: 'failed' }, after: { status: 'pending' } });
        return queued;
      });
      const mail = await find(queue, resent!.id);
      const { subject } = (await rendered([mail])).get(mail)!;
      return entryOf(mail, subject);
    },

    /**
     * POST admin/mail/outbox/{id}/bounced: a bounce the mail server reported after it accepted the e-mail
     * (a delivery failure notice in the sender's mailbox), recorded as a refusal at sending would be:
     * the address's owner has it unproven and is asked about their contacts.
     */
    async markBounced(session: Session, id: number): Promise<MailLogEntry> {
      const changed = await db.transaction(async (tx) => {
        const [bounced] = await tx
          .update(mailOutbox)
          .set({ status: 'bounced', lastError: 'Reported as bounced by the mail server after sending.' })
          .where(sql`${mailOutbox.id} = ${id} and ${mailOutbox.status} = 'sent'`)
          .returning({ recipient: mailOutbox.recipient, kind: mailOutbox.kind });
        if (!bounced) {
          const [exists] = await tx.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.id, id));
          throw exists ? badRequest(messages.mailNotSent) : notFound(messages.mailNotFound);
        }
        await recordAudit(tx, { actorUserId: session.userId, action: 'mail.bounced', entity: 'mail_outbox', entityId: id, before: { status: 'sent' }, after: { status: 'bounced' } });
        return noteBouncedEmail(tx, bounced.recipient, bounced.kind);
      });
      changed.forEach(forget);
      const mail = await find('outbox', id);
      const { subject } = (await rendered([mail])).get(mail)!;
      return entryOf(mail, subject);
    },
  };
}
