import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { messages, type AdminUser, type AuthResult, type BackupContact, type ContactCheck, type ContactsConfirmed, type MailLogEntry } from '@petreg/contract';
import { and, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../src/adapters/mail/index.js';
import { NumberRefusedError, type Texter } from '../src/adapters/sms/index.js';
import { auditLog, backupContacts, mailOutbox, textOutbox, users } from '../src/db/schema.js';
import { askOwnersToConfirmContacts } from '../src/modules/contacts/ownerCheckSweep.js';
import { createTextReplies } from '../src/modules/texts/replies.js';
import { queueTexts } from '../src/modules/texts/outbox.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { sendDueMail } from '../src/worker/outbox.js';
import { sendDueTexts } from '../src/worker/texts.js';
import { call, createTestApp, signUpOwner, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: AuthResult;
const db = () => ctx.database.db;
const settings = { publicUrl: 'http://localhost:3000', secret: 'test-secret-test-secret-test-secret!', registryName: 'Pet Registry', reconfirmMonths: 6 };
const DAY_MS = 24 * 3600_000;
const monthsFromNow = (months: number, days = 0) => {
  const at = new Date();
  at.setMonth(at.getMonth() + months);
  return new Date(at.getTime() + days * DAY_MS);
};
const sweep = (at: Date) => askOwnersToConfirmContacts(db(), settings, at);
const checkMails = (email: string) =>
  db().select().from(mailOutbox).where(and(eq(mailOutbox.recipient, email), eq(mailOutbox.kind, 'contacts-check'))).orderBy(mailOutbox.id);
const checkTexts = (userId: number) =>
  db().select().from(textOutbox).where(and(eq(textOutbox.userId, userId), eq(textOutbox.kind, 'contacts-check'))).orderBy(textOutbox.id);
const tokenIn = (text: string) => new URL(text.match(/https?:\/\/\S+\/contacts\/confirm\?\S+/)![0]).searchParams.get('token')!;
const contactCheck = async (token: string) => (await call<ContactCheck>(ctx.app, 'GET', 'Users/contacts-check', { token })).body.result!;

/** A new owner whose mobile (+14155552671) is verified, as the texted code would leave it. */
async function ownerWithMobile() {
  const owner = await signUpOwner(ctx.app);
  await db().update(users).set({ phoneVerifiedAt: new Date() }).where(eq(users.id, owner.user.id));
  return owner;
}

beforeAll(async () => {
  ctx = await createTestApp();
  await ensureAdministrator(db(), { email: 'root@example.com', password: 'Admin#Pass1' });
  admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
});
afterAll(() => ctx.close());

describe('"Is this still how we reach you?" every few months', () => {
  it('asks once when 6 months pass, by e-mail and a text to the verified mobile, and not again that period', async () => {
    const owner = await ownerWithMobile();
    await sweep(monthsFromNow(5, 27));
    expect(await checkMails(owner.input.email)).toHaveLength(0);

    await sweep(monthsFromNow(6, 1));
    const [mail, ...moreMails] = await checkMails(owner.input.email);
    const [text, ...moreTexts] = await checkTexts(owner.user.id);
    expect(moreMails).toEqual([]);
    expect(moreTexts).toEqual([]);
    expect(mail!.subject).toBe('Is this still how we reach you?');
    expect(mail!.text).toContain('When someone finds your pet, this is how we reach you. Is this still how we reach you?');
    expect(mail!.text).toContain(`E-mail: ${owner.input.email}\nMobile: (415) 555 - 2671`);
    expect(mail!.text).toContain('Something changed? Update your profile: http://localhost:3000/client/profile');
    expect(text!.recipient).toBe('+14155552671');
    expect(text!.body).toMatch(/^Pet Registry: Is this still how we reach you\? E-mail \S+, mobile \(415\) 555 - 2671\. Confirm: http:\/\/localhost:3000\/contacts\/confirm\?token=\S+ or update your profile: http:\/\/localhost:3000\/client\/profile$/);

    // Every sweep of the period, and two at once, ask nothing more.
    await sweep(monthsFromNow(6, 1));
    await Promise.all([sweep(monthsFromNow(9)), sweep(monthsFromNow(9))]);
    expect(await checkMails(owner.input.email)).toHaveLength(1);
    expect(await checkTexts(owner.user.id)).toHaveLength(1);
    // Unanswered, the next period asks again.
    await sweep(monthsFromNow(12, 3));
    expect(await checkMails(owner.input.email)).toHaveLength(2);
  });

  it('e-mails an owner with no verified mobile, and never an administrator', async () => {
    const owner = await signUpOwner(ctx.app);
    await sweep(monthsFromNow(6, 1));
    const [mail] = await checkMails(owner.input.email);
    expect(mail!.text).toContain('Mobile: none on file');
    expect(await checkTexts(owner.user.id)).toEqual([]);
    expect(await checkMails('root@example.com')).toEqual([]);
  });

  it('the mailed link confirms without signing in; tampered, other-way or replaced links do not', async () => {
    const owner = await ownerWithMobile();
    await sweep(monthsFromNow(6, 1));
    const token = tokenIn((await checkMails(owner.input.email))[0]!.text);
    const [id, askedAt, channel, signature] = token.split('.');
    expect(channel).toBe('email');

    const refused = async (bad: string) => {
      const answer = await call(ctx.app, 'POST', 'public/contacts/confirm', { body: { token: bad } });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([messages.contactsLinkInvalid]);
    };
    await refused(`${id}.${askedAt}.${channel}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`);
    await refused(`${id}.${askedAt}.sms.${signature}`);
    await refused(`${Number(id) + 1}.${askedAt}.${channel}.${signature}`);
    await refused(`${id}.${Number(askedAt) + 1}.${channel}.${signature}`);
    await refused('nonsense');
    await refused(`99999999999.${askedAt}.${channel}.${signature}`);
    await refused(`${id}.9007199254740991.${channel}.${signature}`);

    const confirmed = await call<ContactsConfirmed>(ctx.app, 'POST', 'public/contacts/confirm', { body: { token } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.result).toEqual({ channel: 'email', emailBounced: false });
    const check = await contactCheck(owner.token);
    expect(Date.now() - Date.parse(check.emailConfirmedAt!)).toBeLessThan(60_000);
    expect(Date.now() - Date.parse(check.phoneConfirmedAt!)).toBeLessThan(60_000);

    // A changed e-mail voids the links that named the old one.
    await db().update(users).set({ email: `moved-${owner.input.email}` }).where(eq(users.id, owner.user.id));
    await refused(token);
  });

  it('a link older than 30 days no longer confirms', async () => {
    const owner = await ownerWithMobile();
    await db().update(users).set({ contactsCheckDueAt: new Date() }).where(eq(users.id, owner.user.id));
    await sweep(new Date(Date.now() - 31 * DAY_MS));
    const token = tokenIn((await checkMails(owner.input.email))[0]!.text);
    const answer = await call(ctx.app, 'POST', 'public/contacts/confirm', { body: { token } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([messages.contactsLinkInvalid]);
  });

  it('the texted link confirms the contacts too', async () => {
    const owner = await ownerWithMobile();
    await sweep(monthsFromNow(6, 1));
    const token = tokenIn((await checkTexts(owner.user.id))[0]!.body);
    const confirmed = await call<ContactsConfirmed>(ctx.app, 'POST', 'public/contacts/confirm', { body: { token } });
    expect(confirmed.body.result).toEqual({ channel: 'sms', emailBounced: false });
    expect(Date.now() - Date.parse((await contactCheck(owner.token)).phoneConfirmedAt!)).toBeLessThan(60_000);
  });
});

describe('the dashboard asks while contacts are stale or the e-mail bounces', () => {
  it('says stale after 12 months unconfirmed, and the banner button confirms', async () => {
    const owner = await signUpOwner(ctx.app);
    expect(await contactCheck(owner.token)).toEqual({ emailConfirmedAt: null, phoneConfirmedAt: null, emailBounced: false, stale: false });
    const longAgo = new Date(Date.now() - 13 * 30 * DAY_MS);
    await db().update(users).set({ createdAt: longAgo, phoneVerifiedAt: longAgo }).where(eq(users.id, owner.user.id));
    expect(await contactCheck(owner.token)).toEqual({ emailConfirmedAt: null, phoneConfirmedAt: longAgo.toISOString(), emailBounced: false, stale: true });

    const confirmed = await call<ContactCheck>(ctx.app, 'POST', 'Users/contacts/confirm', { token: owner.token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.result!.stale).toBe(false);
    expect(confirmed.body.result!.emailConfirmedAt).not.toBeNull();
    expect((await call(ctx.app, 'GET', 'Users/contacts-check')).status).toBe(401);
    expect((await call(ctx.app, 'POST', 'Users/contacts/confirm')).status).toBe(401);
  });
});

describe('bounces and failed texts', () => {
  let sink: SMTPServer;
  let port: number;
  const refused = new Set<string>();
  beforeAll(async () => {
    sink = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      closeTimeout: 100,
      onRcptTo(address, _session, callback) {
        if (refused.has(address.address.toLowerCase())) return callback(Object.assign(new Error('5.1.1 No such mailbox'), { responseCode: 550 }));
        callback();
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    sink.listen(0, '127.0.0.1');
    await once(sink.server, 'listening');
    port = (sink.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => sink.close(() => resolve())));

  it('a hard bounce marks the e-mail unproven and bouncing, and asks at the next sweep, by e-mail and text', async () => {
    const owner = await ownerWithMobile();
    const email = owner.input.email.toLowerCase();
    await db().update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, owner.user.id));
    refused.add(email);
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Pet Registry <no-reply@localhost>', outboxDir: ctx.outboxDir });
    try {
      while ((await sendDueMail(db(), mailer)) > 0);
      const [confirmation] = await db().select().from(mailOutbox).where(and(eq(mailOutbox.recipient, owner.input.email), eq(mailOutbox.kind, 'email-confirmation')));
      // Refused for good: bounced at once, not tried again.
      expect(confirmation).toMatchObject({ status: 'bounced', attempts: 1 });
      expect(confirmation!.lastError).toContain('550');
      const [row] = await db().select().from(users).where(eq(users.id, owner.user.id));
      expect(row!.emailVerifiedAt).toBeNull();
      expect(row!.emailBouncedAt).toBeInstanceOf(Date);
      expect((await contactCheck(owner.token)).emailBounced).toBe(true);

      await sweep(new Date());
      const [mail] = await checkMails(owner.input.email);
      expect(mail!.text).toContain(`Our last e-mail to ${owner.input.email} could not be delivered. Is this still how we reach you?`);
      const [text] = await checkTexts(owner.user.id);
      expect(text!.body).toContain(`Our last e-mail to ${owner.input.email} could not be delivered.`);

      // The ask bounces as well: that asks nothing more.
      while ((await sendDueMail(db(), mailer)) > 0);
      expect((await checkMails(owner.input.email))[0]!.status).toBe('bounced');
      await sweep(new Date());
      expect(await checkMails(owner.input.email)).toHaveLength(1);

      // The texted link cannot vouch for the bouncing address; following a mailed link proves it again.
      const confirmed = await call<ContactsConfirmed>(ctx.app, 'POST', 'public/contacts/confirm', { body: { token: tokenIn(text!.body) } });
      expect(confirmed.body.result).toEqual({ channel: 'sms', emailBounced: true });
      expect((await contactCheck(owner.token)).emailBounced).toBe(true);
    } finally {
      mailer.close?.();
    }
  });

  it('a text to the owner\'s own number that fails for good asks by e-mail; a backup contact\'s failed text or a STOP does not', async () => {
    const owner = await ownerWithMobile();
    const refusing: Texter = {
      send: (message) => Promise.reject(new NumberRefusedError(`21211 Invalid 'To' number ${message.to}`)),
    };
    await queueTexts(db(), [{ to: '+14155552671', kind: 'found-report', body: 'Someone found your pet.', userId: owner.user.id }]);
    await queueTexts(db(), [{ to: '+15035550123', kind: 'found-report-backup', body: 'A finder reached out.', userId: owner.user.id }]);
    while ((await sendDueTexts(db(), refusing)).sent > 0);
    await sweep(new Date());
    const [mail] = await checkMails(owner.input.email);
    expect(mail!.text).toContain('Our last text to (415) 555 - 2671 did not go through. Is this still how we reach you?');

    // A delivery report of a failure does the same; one saying the number answered STOP does not.
    const other = await ownerWithMobile();
    await db().insert(textOutbox).values([
      { recipient: '+14155552671', kind: 'phone-code', body: '[hidden]', userId: other.user.id, status: 'sent', providerId: `SM-stop-${other.user.id}` },
    ]);
    const replies = createTextReplies(db());
    await replies.recordDelivery({ sid: `SM-stop-${other.user.id}`, status: 'undelivered', errorCode: '21610' });
    await sweep(new Date());
    expect(await checkMails(other.input.email)).toEqual([]);
    await db().insert(textOutbox).values([
      { recipient: '+14155552671', kind: 'found-report', body: 'x', userId: other.user.id, status: 'sent', providerId: `SM-fail-${other.user.id}` },
    ]);
    await replies.recordDelivery({ sid: `SM-fail-${other.user.id}`, status: 'undelivered', errorCode: '30003' });
    await sweep(new Date());
    expect(await checkMails(other.input.email)).toHaveLength(1);
  });

  it('an administrator marks a sent e-mail bounced from the mail log (a late bounce notice), with the same effect', async () => {
    const owner = await signUpOwner(ctx.app);
    const [sent] = await db()
      .update(mailOutbox)
      .set({ status: 'sent', sentAt: new Date() })
      .where(and(eq(mailOutbox.recipient, owner.input.email), eq(mailOutbox.kind, 'email-confirmation')))
      .returning();
    expect((await call(ctx.app, 'POST', `admin/mail/outbox/${sent!.id}/bounced`, { token: owner.token })).status).toBe(403);
    const marked = await call<MailLogEntry>(ctx.app, 'POST', `admin/mail/outbox/${sent!.id}/bounced`, { token: admin.token });
    expect(marked.status).toBe(200);
    expect(marked.body.result!.status).toBe('bounced');
    expect((await contactCheck(owner.token)).emailBounced).toBe(true);
    const again = await call(ctx.app, 'POST', `admin/mail/outbox/${sent!.id}/bounced`, { token: admin.token });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([messages.mailNotSent]);
    expect((await call(ctx.app, 'POST', 'admin/mail/outbox/99999999/bounced', { token: admin.token })).status).toBe(404);
    const audit = await db().select().from(auditLog).where(and(eq(auditLog.action, 'mail.bounced'), eq(auditLog.entityId, String(sent!.id))));
    expect(audit).toHaveLength(1);
    await sweep(new Date());
    expect(await checkMails(owner.input.email)).toHaveLength(1);
  });
});

describe('the admin record', () => {
  it('shows when each contact was last confirmed and whether the e-mail bounces', async () => {
    const owner = await ownerWithMobile();
    const verifiedAt = new Date('2026-01-02T03:04:05.000Z');
    await db().update(users).set({ phoneVerifiedAt: verifiedAt, emailBouncedAt: new Date() }).where(eq(users.id, owner.user.id));
    const record = await call<AdminUser>(ctx.app, 'GET', `admin/pet-user/${owner.user.id}`, { token: admin.token });
    expect(record.body.result!.data.contactCheck).toEqual({ emailConfirmedAt: null, phoneConfirmedAt: verifiedAt.toISOString(), emailBounced: true, stale: false });
  });
});

describe("resending a backup contact's confirmation", () => {
  it('the owner for their own contacts only; an administrator for any, recorded; within the hourly limit', async () => {
    const owner = await signUpOwner(ctx.app);
    const stranger = await signUpOwner(ctx.app);
    const added = await call<BackupContact>(ctx.app, 'POST', 'Users/backup-contact', { token: owner.token, body: { name: 'Grandma Rose', phoneNumber: '(503) 555-0199' } });
    const id = added.body.result!.id;

    const intruder = await call(ctx.app, 'POST', `Users/BackupContact/${id}/resend-confirmation`, { token: stranger.token });
    expect(intruder.status).toBe(404);
    expect(intruder.body.errors).toEqual([messages.notFound]);
    expect((await call(ctx.app, 'POST', `admin/backup-contact/${id}/resend-confirmation`, { token: stranger.token })).status).toBe(403);
    expect((await call(ctx.app, 'POST', `admin/backup-contact/${id}/resend-confirmation`)).status).toBe(401);

    const resent = await call<BackupContact>(ctx.app, 'POST', `admin/backup-contact/${id}/resend-confirmation`, { token: admin.token });
    expect(resent.status).toBe(200);
    expect(resent.body.result).toEqual({ id, name: 'Grandma Rose', phoneNumber: '+15035550199', phoneConfirmed: false });
    const texts = await db().select().from(textOutbox).where(and(eq(textOutbox.recipient, '+15035550199'), eq(textOutbox.kind, 'backup-contact-confirmation')));
    expect(texts.filter((t) => t.userId === owner.user.id)).toHaveLength(2);
    const audit = await db().select().from(auditLog).where(and(eq(auditLog.action, 'backup-contact.resend-confirmation'), eq(auditLog.entityId, String(id))));
    expect(audit.map((a) => a.actorUserId)).toEqual([admin.user.id]);

    // The owner's 5 an hour hold for everyone.
    for (let i = 0; i < 3; i++) expect((await call(ctx.app, 'POST', `Users/BackupContact/${id}/resend-confirmation`, { token: owner.token })).status).toBe(200);
    const limited = await call(ctx.app, 'POST', `admin/backup-contact/${id}/resend-confirmation`, { token: admin.token });
    expect(limited.status).toBe(429);
    expect(limited.body.errors).toEqual([messages.backupContactConfirmationsTooMany]);

    await db().update(backupContacts).set({ phoneConfirmedAt: new Date() }).where(eq(backupContacts.id, id));
    const done = await call(ctx.app, 'POST', `admin/backup-contact/${id}/resend-confirmation`, { token: admin.token });
    expect(done.status).toBe(400);
    expect(done.body.errors).toEqual([messages.backupContactAlreadyConfirmed]);
    expect((await call(ctx.app, 'POST', 'admin/backup-contact/99999999/resend-confirmation', { token: admin.token })).status).toBe(404);
  });
});
