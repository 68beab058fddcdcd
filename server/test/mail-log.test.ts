import { randomUUID } from 'node:crypto';
import { mailLogPageSize, matchCountLimit, messages, type AuthResult, type MailLogEntry, type MailLogMessage, type MailLogPage } from '@petreg/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertEmails, auditLog, mailOutbox, sites } from '../src/db/schema.js';
import { createMailer } from '../src/adapters/mail/index.js';
import { accountForInvitee } from '../src/modules/users/invitations.js';
import { sendDueMail } from '../src/worker/outbox.js';
import { alertKit } from './alertKit.js';
import { call, createTestApp, signInAdministrator, readOutbox, signUpOwner, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: AuthResult;
const kit = alertKit(() => ctx);
const db = () => ctx.database.db;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await signInAdministrator(ctx);
});
afterAll(() => ctx.close());

const list = (query = '', page = 1) => call<MailLogPage>(ctx.app, 'GET', `admin/mail?query=${encodeURIComponent(query)}&page=${page}`, { token: admin.token });

/** An owner's paid alert about a dog lost in 63101, reaching one clinic: the clinic's e-mail and the owner's confirmation. */
async function paidAlert() {
  const clinic = await kit.siteNear('63101', 5);
  const owner = await kit.ownerWithLostPet();
  await kit.sendAndPay(owner.token, owner.pet.id);
  return { clinic, owner };
}

describe('the mail log', () => {
  it('is for administrators only', async () => {
    const customer = await signUpOwner(ctx.app);
    for (const [method, url] of [
      ['GET', 'admin/mail'],
      ['GET', 'admin/mail/outbox/1'],
      ['POST', 'admin/mail/outbox/1/resend'],
    ] as const) {
      expect((await call(ctx.app, method, url)).status).toBe(401);
      expect((await call(ctx.app, method, url, { token: customer.token })).status).toBe(403);
    }
  });

  it("lists both queues newest first, with each e-mail's subject, kind and status, searched by part of the address", async () => {
    const { clinic, owner } = await paidAlert();
    const toClinic = await list(clinic.email!.slice(0, 12).toUpperCase());
    expect(toClinic.status).toBe(200);
    expect(toClinic.body.result!.items).toEqual([
      expect.objectContaining({
        queue: 'alert',
        recipient: clinic.email,
        kind: 'alert',
        status: 'pending',
        attempts: 0,
        subject: 'Lost dog: Biscuit, last seen near Saint Louis, MO 63101',
        sentAt: null,
      }),
    ]);
    const toOwner = (await list(owner.user.data.email)).body.result!;
    expect(toOwner.items.map((mail) => [mail.queue, mail.kind, mail.subject])).toContainEqual(['outbox', 'alert-sent', 'Your lost pet alert for Biscuit was sent']);

    const everything = (await list()).body.result!;
    expect(everything.total).toBeGreaterThanOrEqual(2);
    const times = everything.items.map((mail) => mail.createdAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  it("finds an alert's thank-you notes by part of the address, and the e-mails an address got before its site changed it", async () => {
    const { clinic, owner } = await paidAlert();
    await db().update(alertEmails).set({ status: 'delivered', deliveredAt: new Date() }).where(eq(alertEmails.recipient, clinic.email!));
    expect((await call(ctx.app, 'PUT', `pet/mark-as-found/${owner.pet.id}`, { token: owner.token })).status).toBe(200);
    await db().update(sites).set({ email: `moved-${clinic.email}` }).where(eq(sites.id, clinic.id));
    const again = await kit.ownerWithLostPet();
    await kit.sendAndPay(again.token, again.pet.id);

    const part = clinic.email!.slice(3, 15);
    const found = (await list(part)).body.result!.items.filter((mail) => mail.queue === 'alert');
    expect(found.map((mail) => [mail.recipient, mail.kind])).toEqual([
      [`moved-${clinic.email}`, 'alert'],
      [clinic.email, 'found'],
      [clinic.email, 'alert'],
    ]);
    expect((await list(`moved-${clinic.email}`)).body.result!.items.map((mail) => mail.recipient)).toEqual([`moved-${clinic.email}`]);
  });

  it('pages through the log and treats % and _ in a search as themselves', async () => {
    const tag = `${randomUUID().slice(0, 8)}@example.com`;
    const rows = Array.from({ length: mailLogPageSize + 3 }, (_, i) => ({
      recipient: `paged${i}-${tag}`,
      kind: 'receipt' as const,
      subject: `Receipt ${i}`,
      text: 'Thank you.',
    }));
    await db().insert(mailOutbox).values(rows);
    const first = (await list(tag)).body.result!;
    const second = (await list(tag, 2)).body.result!;
    expect(first.total).toBe(mailLogPageSize + 3);
    expect(first.items).toHaveLength(mailLogPageSize);
    expect(second.items).toHaveLength(3);
    expect(new Set([...first.items, ...second.items].map((mail) => mail.id)).size).toBe(mailLogPageSize + 3);
    expect((await list(`paged%-${tag}`)).body.result!.total).toBe(0);
    expect((await list(`paged_-${tag}`)).body.result!.total).toBe(0);
    expect((await call(ctx.app, 'GET', 'admin/mail?page=0', { token: admin.token })).status).toBe(400);
  });

  it(`counts up to ${matchCountLimit} e-mails and says when more match`, async () => {
    const tag = `${randomUUID().slice(0, 8)}@example.com`;
    const mail = (i: number) => ({ recipient: `many${i}-${tag}`, kind: 'receipt' as const, subject: `Receipt ${i}`, text: 'Thank you.' });
    await db().insert(mailOutbox).values(Array.from({ length: matchCountLimit }, (_, i) => mail(i)));
    expect((await list(tag)).body.result).toMatchObject({ total: matchCountLimit, totalCapped: false });
    await db().insert(mailOutbox).values(mail(matchCountLimit));
    const capped = (await list(tag)).body.result!;
    expect(capped).toMatchObject({ total: matchCountLimit, totalCapped: true });
    expect(capped.items[0]!.recipient).toBe(`many${matchCountLimit}-${tag}`);
  });

  it('shows a subject stored with a line break, from before names were held to one line, on one line', async () => {
    const recipient = `old-subject-${Date.now()}@example.com`;
    const [old] = await db().insert(mailOutbox).values({ recipient, kind: 'receipt', subject: 'Rex\r\nis protected', text: 'x' }).returning();
    const listed = await list(recipient);
    expect(listed.body.result!.items.map((item) => item.subject)).toEqual(['Rex is protected']);
    const opened = await call<MailLogMessage>(ctx.app, 'GET', `admin/mail/outbox/${old!.id}`, { token: admin.token });
    expect(opened.body.result!.subject).toBe('Rex is protected');
  });

  it('opens an e-mail with its plain text, as its recipient got it', async () => {
    const { clinic } = await paidAlert();
    const [row] = await db().select().from(alertEmails).where(eq(alertEmails.recipient, clinic.email!));
    const opened = await call<MailLogMessage>(ctx.app, 'GET', `admin/mail/alert/${row!.id}`, { token: admin.token });
    expect(opened.status).toBe(200);
    expect(opened.body.result).toMatchObject({ recipient: clinic.email, kind: 'alert' });
    expect(opened.body.result!.text).toContain('LOST DOG: Biscuit');
    expect(opened.body.result!.text).toContain('Slipped the leash near the park.');
    expect(opened.body.result!.text).not.toContain('.gif');
    // Opening it is not the recipient opening it.
    expect((await db().select().from(alertEmails).where(eq(alertEmails.id, row!.id)))[0]!.openedAt).toBeNull();

    const [receipt] = await db().insert(mailOutbox).values({ recipient: 'someone@example.com', kind: 'receipt', subject: 'Rex is protected', text: 'Thank you, Rex.' }).returning();
    expect((await call<MailLogMessage>(ctx.app, 'GET', `admin/mail/outbox/${receipt!.id}`, { token: admin.token })).body.result).toMatchObject({
      subject: 'Rex is protected',
      text: 'Thank you, Rex.',
      kind: 'receipt',
    });
    const missing = await call(ctx.app, 'GET', 'admin/mail/outbox/99999999', { token: admin.token });
    expect([missing.status, missing.body.errors]).toEqual([404, [messages.mailNotFound]]);
    expect((await call(ctx.app, 'GET', `admin/mail/elsewhere/${receipt!.id}`, { token: admin.token })).status).toBe(400);
  });

  it('lists a password reset sent at once, and never shows, nor keeps, a working code', async () => {
    const owner = await signUpOwner(ctx.app);
    const email = owner.user.data.email;
    expect((await call(ctx.app, 'POST', 'Users/forgot-password', { body: { email } })).status).toBe(200);
    const sent = (await readOutbox(ctx.outboxDir)).filter((mail) => mail.subject === 'Reset your password').at(-1)!;
    const code = new URL(sent.text!.match(/http\S+/)![0]).searchParams.get('code')!;
    expect(code.length).toBeGreaterThan(20);

    const [entry] = (await list(email)).body.result!.items.filter((mail) => mail.kind === 'password-reset');
    expect(entry).toMatchObject({ queue: 'outbox', status: 'sent', attempts: 1, subject: 'Reset your password' });
    const opened = (await call<MailLogMessage>(ctx.app, 'GET', `admin/mail/outbox/${entry!.id}`, { token: admin.token })).body.result!;
    expect(opened.text).toContain('code=[hidden]');
    expect(opened.text).not.toContain(code);
    const [stored] = await db().select().from(mailOutbox).where(eq(mailOutbox.id, entry!.id));
    expect(`${stored!.text}${stored!.html}`).not.toContain(code);

    // A queued e-mail keeps its link to be sent; the log shows it without the token.
    const [change] = await db()
      .insert(mailOutbox)
      .values({ recipient: email, kind: 'email-change', subject: 'Confirm your new email address', text: 'Open http://localhost:3000/confirm-email?token=Secret-Token_123 within 24 hours.' })
      .returning();
    const shown = (await call<MailLogMessage>(ctx.app, 'GET', `admin/mail/outbox/${change!.id}`, { token: admin.token })).body.result!;
    expect(shown.text).toBe('Open http://localhost:3000/confirm-email?token=[hidden] within 24 hours.');
  });

  it('keeps no working code of an invitation once the worker sent it; the sent e-mail carries it', async () => {
    const email = `invited-${randomUUID().slice(0, 8)}@example.com`;
    await db().transaction((tx) => accountForInvitee(tx, 'http://localhost:3000', email, { petName: 'Rex', from: 'Ann Lee' }));
    const [queued] = await db().select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
    const code = new URL(queued!.text.match(/http\S+/)![0]).searchParams.get('code')!;
    expect(code).toHaveLength(43);

    const mailer = createMailer({ from: 'Pet Registry <no-reply@localhost>', outboxDir: ctx.outboxDir });
    // Everything due goes, a batch at a time, earlier tests' e-mails too.
    while ((await sendDueMail(db(), mailer)) > 0);
    const [stored] = await db().select().from(mailOutbox).where(eq(mailOutbox.id, queued!.id));
    expect(stored!.status).toBe('sent');
    expect(`${stored!.text}${stored!.html}`).not.toContain(code);
    expect(stored!.text).toContain('code=[hidden]');
    const delivered = (await readOutbox(ctx.outboxDir)).filter((mail) => mail.subject === queued!.subject && mail.text!.includes(code));
    expect(delivered).toHaveLength(1);
    // The mailed link still works.
    const set = await call(ctx.app, 'POST', 'Users/set-password-by-token', { body: { email, token: code, password: 'Invited#Pass1', firstName: 'Robin', lastName: 'Lee', phoneNumber: '(314) 555-0142' } });
    expect(set.status).toBe(200);
  });

  it("shows an alert e-mail without its recipient's working unsubscribe address", async () => {
    const { clinic } = await paidAlert();
    const [row] = await db().select().from(alertEmails).where(eq(alertEmails.recipient, clinic.email!));
    const opened = (await call<MailLogMessage>(ctx.app, 'GET', `admin/mail/alert/${row!.id}`, { token: admin.token })).body.result!;
    expect(opened.text).toContain('/api/v2/email/unsubscribe/[hidden]');
    expect(opened.text).not.toContain(row!.token);
  });

  it('sends a failed e-mail again, and only a failed one, in the audit log', async () => {
    const { clinic } = await paidAlert();
    const [row] = await db().select().from(alertEmails).where(eq(alertEmails.recipient, clinic.email!));
    const early = await call(ctx.app, 'POST', `admin/mail/alert/${row!.id}/resend`, { token: admin.token });
    expect([early.status, early.body.errors]).toEqual([400, [messages.mailNotFailed]]);

    await db().update(alertEmails).set({ status: 'failed', attempts: 8, lastError: '421 try later' }).where(eq(alertEmails.id, row!.id));
    const failed = (await list(clinic.email!)).body.result!.items[0]!;
    expect(failed).toMatchObject({ status: 'failed', attempts: 8, lastError: '421 try later' });

    const resent = await call<MailLogEntry>(ctx.app, 'POST', `admin/mail/alert/${row!.id}/resend`, { token: admin.token });
    expect(resent.status).toBe(200);
    expect(resent.body.result).toMatchObject({ status: 'pending', attempts: 0, lastError: null });
    const [queued] = await db().select().from(alertEmails).where(eq(alertEmails.id, row!.id));
    expect(queued!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
    const audit = await db().select().from(auditLog).where(and(eq(auditLog.action, 'mail.resend'), eq(auditLog.entityId, String(row!.id))));
    expect(audit).toEqual([expect.objectContaining({ actorUserId: admin.user.id, entity: 'mail_alert' })]);

    const [bounced] = await db().insert(mailOutbox).values({ recipient: 'gone@example.com', kind: 'receipt', subject: 'x', text: 'x', status: 'failed', attempts: 8 }).returning();
    expect((await call(ctx.app, 'POST', `admin/mail/outbox/${bounced!.id}/resend`, { token: admin.token })).status).toBe(200);
    expect((await db().select().from(mailOutbox).where(eq(mailOutbox.id, bounced!.id)))[0]).toMatchObject({ status: 'pending', attempts: 0 });
    const unknown = await call(ctx.app, 'POST', 'admin/mail/outbox/99999999/resend', { token: admin.token });
    expect([unknown.status, unknown.body.errors]).toEqual([404, [messages.mailNotFound]]);
  });
});
