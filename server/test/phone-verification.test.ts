import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { messages, type AuthResult, type BackupContact, type MailLogEntry, type MailLogMessage, type MailLogPage, type User } from '@petreg/contract';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFileTexter } from '../src/adapters/sms/index.js';
import { phoneCodes, textOutbox, users } from '../src/db/schema.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { sendDueTexts } from '../src/worker/texts.js';
import { alertKit } from './alertKit.js';
import { call, createTestApp, signUpOwner, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: AuthResult;
const db = () => ctx.database.db;
const kit = alertKit(() => ctx);
const smsDir = () => join(ctx.outboxDir, 'sms');

beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: 'https://registry.example.org', REGISTRY_NAME: 'Chip Registry' } });
  await ensureAdministrator(db(), { email: 'root@example.com', password: 'Admin#Pass1' });
  admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
});
afterAll(() => ctx.close());
afterEach(() => vi.useRealTimers());

/** The profile as the owner saves it, with a new mobile number. */
async function changeMobile(owner: AuthResult, phoneNumber: string) {
  const user = (await call<User>(ctx.app, 'GET', 'Users/current-user', { token: owner.token })).body.result!;
  const d = user.data;
  const profile = { firstName: d.firstName, lastName: d.lastName, email: d.email, phoneNumber, address1: d.address1, address2: d.address2, city: d.city, stateId: d.stateId, zipcode: d.zipcode, notifyByEmail: d.notifyByEmail, notifyBySms: true };
  return call<User>(ctx.app, 'PUT', `Users/${owner.user.id}`, { token: owner.token, body: profile });
}

/** The newest text of a kind to the owner, as queued. */
async function newestText(userId: number, kind: 'phone-code' | 'backup-contact-confirmation') {
  const [text] = await db().select().from(textOutbox).where(and(eq(textOutbox.userId, userId), eq(textOutbox.kind, kind))).orderBy(desc(textOutbox.id)).limit(1);
  return text!;
}
const codeIn = (body: string) => /^(\d{6}) is your Chip Registry code\. It works for 10 minutes\.$/.exec(body)![1]!;
const verify = (owner: AuthResult, code: string) => call<User>(ctx.app, 'POST', 'Users/verify-phone', { token: owner.token, body: { code } });
const sendCode = (owner: AuthResult) => call(ctx.app, 'POST', 'Users/send-phone-code', { token: owner.token, body: {} });
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe("the owner's mobile number", () => {
  it('is unverified at sign-up and when changed, a code is texted, and the code verifies it once', async () => {
    const owner = await signUpOwner(ctx.app);
    expect(owner.user.data.phoneVerified).toBe(false);
    const changed = await changeMobile(owner, '(314) 555-0123');
    expect(changed.status).toBe(200);
    expect(changed.body.result!.data).toMatchObject({ phoneNumber: '+13145550123', phoneVerified: false });
    const text = await newestText(owner.user.id, 'phone-code');
    expect(text).toMatchObject({ recipient: '+13145550123', status: 'pending' });
    const code = codeIn(text.body);
    // Kept as a hash only.
    const [stored] = await db().select().from(phoneCodes).where(eq(phoneCodes.userId, owner.user.id));
    expect(JSON.stringify(stored)).not.toContain(code);

    expect((await verify(owner, otherCode(code))).body.errors).toEqual([messages.phoneCodeWrong]);
    const verified = await verify(owner, code);
    expect(verified.status).toBe(200);
    expect(verified.body.result!.data.phoneVerified).toBe(true);
    expect((await verify(owner, code)).body.errors).toEqual([messages.phoneAlreadyVerified]);

    // A new number is unverified again, and the old code does not prove it.
    expect((await changeMobile(owner, '(314) 555-0124')).body.result!.data.phoneVerified).toBe(false);
    expect((await verify(owner, code)).body.errors).toEqual([messages.phoneCodeWrong]);
  });

  it('ends a code after 10 minutes', async () => {
    const owner = await signUpOwner(ctx.app);
    await changeMobile(owner, '(314) 555-0125');
    const code = codeIn((await newestText(owner.user.id, 'phone-code')).body);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10 * 60_000 + 1000 });
    expect((await verify(owner, code)).body.errors).toEqual([messages.phoneCodeExpired]);
  });

  it('voids a code after 5 wrong tries, even for the right code', async () => {
    const owner = await signUpOwner(ctx.app);
    await changeMobile(owner, '(314) 555-0126');
    const code = codeIn((await newestText(owner.user.id, 'phone-code')).body);
    for (let i = 0; i < 4; i++) expect((await verify(owner, otherCode(code))).body.errors).toEqual([messages.phoneCodeWrong]);
    expect((await verify(owner, otherCode(code))).body.errors).toEqual([messages.phoneCodeTooManyTries]);
    const late = await verify(owner, code);
    expect(late.status).toBe(400);
    expect(late.body.errors).toEqual([messages.phoneCodeTooManyTries]);
    // A new code works; the earlier one no longer does.
    expect((await sendCode(owner)).status).toBe(200);
    const fresh = codeIn((await newestText(owner.user.id, 'phone-code')).body);
    if (fresh !== code) expect((await verify(owner, code)).body.errors).toEqual([messages.phoneCodeWrong]);
    expect((await verify(owner, fresh)).body.result!.data.phoneVerified).toBe(true);
  });

  it('judges at most 5 wrong codes sent at once, and the right code after them is refused as void', async () => {
    const owner = await signUpOwner(ctx.app);
    await changeMobile(owner, '(314) 555-0129');
    const code = codeIn((await newestText(owner.user.id, 'phone-code')).body);
    const guesses = await Promise.all(Array.from({ length: 10 }, (_, n) => verify(owner, String((Number(code) + n + 1) % 1_000_000).padStart(6, '0'))));
    const answers = guesses.map((g) => g.body.errors![0]);
    expect(answers.filter((a) => a === messages.phoneCodeWrong)).toHaveLength(4);
    expect(answers.filter((a) => a === messages.phoneCodeTooManyTries)).toHaveLength(6);
    // No guess past the fifth was counted, so none was judged.
    expect((await db().select().from(phoneCodes).where(eq(phoneCodes.userId, owner.user.id)))[0]!.wrongTries).toBe(5);
    const late = await verify(owner, code);
    expect(late.status).toBe(400);
    expect(late.body.errors).toEqual([messages.phoneCodeTooManyTries]);
  });

  it('texts an account at most 3 codes an hour', async () => {
    const owner = await signUpOwner(ctx.app);
    await changeMobile(owner, '(314) 555-0127');
    expect((await sendCode(owner)).status).toBe(200);
    expect((await sendCode(owner)).status).toBe(200);
    const refused = await sendCode(owner);
    expect(refused.status).toBe(429);
    expect(refused.body.errors).toEqual([messages.phoneCodesTooMany]);
    expect(await db().select().from(textOutbox).where(eq(textOutbox.userId, owner.user.id))).toHaveLength(3);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3600_000 + 1000 });
    expect((await sendCode(owner)).status).toBe(200);
  });

  it('asks for a number first, and only a signed-in owner may ask or verify', async () => {
    const owner = await signUpOwner(ctx.app);
    await db().update(users).set({ phoneNumber: null }).where(eq(users.id, owner.user.id));
    expect((await sendCode(owner)).body.errors).toEqual([messages.phoneNumberMissing]);
    expect((await call(ctx.app, 'POST', 'Users/send-phone-code', { body: {} })).status).toBe(401);
    expect((await call(ctx.app, 'POST', 'Users/verify-phone', { body: { code: '123456' } })).status).toBe(401);
    expect((await verify(owner, '12345')).body.errors).toEqual([messages.phoneCodeInvalid]);
  });

  it('keeps no code once the text is sent: the file has it, the outbox and the mail log do not', async () => {
    const owner = await signUpOwner(ctx.app);
    await changeMobile(owner, '(314) 555-0128');
    const queued = await newestText(owner.user.id, 'phone-code');
    const code = codeIn(queued.body);
    const log = await call<MailLogMessage>(ctx.app, 'GET', `admin/mail/text/${queued.id}`, { token: admin.token });
    expect(log.body.result!.text).toBe('[hidden] is your Chip Registry code. It works for 10 minutes.');
    await sendDueTexts(db(), createFileTexter(smsDir()));
    const sent = await newestText(owner.user.id, 'phone-code');
    expect(sent).toMatchObject({ status: 'sent', body: '[hidden] is your Chip Registry code. It works for 10 minutes.' });
    const files = readdirSync(smsDir()).map((f) => readFileSync(join(smsDir(), f), 'utf8'));
    expect(files).toContain(`To: +13145550128\n\n${code} is your Chip Registry code. It works for 10 minutes.\n`);
    expect((await verify(owner, code)).body.result!.data.phoneVerified).toBe(true);
  });
});

describe('backup contacts confirm their number', () => {
  const add = (owner: AuthResult, phoneNumber: string, id?: number) =>
    call<BackupContact>(ctx.app, 'POST', 'Users/backup-contact', { token: owner.token, body: { id, name: 'Robin Doe', phoneNumber } });
  const linkTokenIn = (body: string) => new URL(/https:\/\/\S+/.exec(body)![0]).searchParams.get('token')!;
  const confirm = (token: string) => call(ctx.app, 'POST', 'public/backup-contact/confirm', { body: { token } });

  it("texts the owner's first name and a link that confirms once", async () => {
    const owner = await signUpOwner(ctx.app, { firstName: 'Jamie' });
    const contact = (await add(owner, '(314) 555-0140')).body.result!;
    expect(contact).toMatchObject({ phoneNumber: '+13145550140', phoneConfirmed: false });
    const text = await newestText(owner.user.id, 'backup-contact-confirmation');
    expect(text.recipient).toBe('+13145550140');
    expect(text.body).toMatch(
      /^Jamie added you as a backup contact for their pets on Chip Registry\. Reply YES to confirm, or open https:\/\/registry\.example\.org\/backup-contact\/confirm\?token=\S+$/,
    );
    const token = linkTokenIn(text.body);
    expect((await confirm(`${token}x`)).body.errors).toEqual([messages.backupContactLinkInvalid]);
    expect((await confirm(token)).status).toBe(200);
    expect((await call<BackupContact[]>(ctx.app, 'GET', 'Users/backup-contacts', { token: owner.token })).body.result![0]!.phoneConfirmed).toBe(true);
    const again = await confirm(token);
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([messages.backupContactLinkInvalid]);
    // The mail log shows the text with the link's code hidden.
    const log = await call<MailLogMessage>(ctx.app, 'GET', `admin/mail/text/${text.id}`, { token: admin.token });
    expect(log.body.result!.text).toContain('/backup-contact/confirm?token=[hidden]');
  });

  it("names the owner by the first word of the first name only, at most 20 characters", async () => {
    const owner = await signUpOwner(ctx.app, { firstName: 'Jamie Win a prize at evil.example/pay' });
    await add(owner, '(314) 555-0141');
    expect((await newestText(owner.user.id, 'backup-contact-confirmation')).body).toMatch(/^Jamie added you as a backup contact for their pets on Chip Registry\. /);
    const long = await signUpOwner(ctx.app, { firstName: `${'Bartholomew'.repeat(4)} Smith` });
    await add(long, '(314) 555-0142');
    expect((await newestText(long.user.id, 'backup-contact-confirmation')).body).toMatch(/^BartholomewBartholom added you as a backup contact/);
  });

  it('asks again when the number changes, and the earlier link no longer works; the same number asks nothing', async () => {
    const owner = await signUpOwner(ctx.app);
    const contact = (await add(owner, '(314) 555-0141')).body.result!;
    const first = linkTokenIn((await newestText(owner.user.id, 'backup-contact-confirmation')).body);
    expect((await confirm(first)).status).toBe(200);
    await add(owner, '314.555.0141', contact.id);
    expect(await db().select().from(textOutbox).where(eq(textOutbox.userId, owner.user.id))).toHaveLength(1);
    const changed = (await add(owner, '(314) 555-0142', contact.id)).body.result!;
    expect(changed.phoneConfirmed).toBe(false);
    expect((await confirm(first)).status).toBe(400);
    expect((await confirm(linkTokenIn((await newestText(owner.user.id, 'backup-contact-confirmation')).body))).status).toBe(200);
  });

  it('resends on request, 5 texts an hour per account, and only to the owner of the contact', async () => {
    const owner = await signUpOwner(ctx.app);
    const stranger = await signUpOwner(ctx.app);
    const contact = (await add(owner, '(314) 555-0143')).body.result!;
    const resend = (who: AuthResult) => call<BackupContact>(ctx.app, 'POST', `Users/BackupContact/${contact.id}/resend-confirmation`, { token: who.token, body: {} });
    expect((await resend(stranger)).status).toBe(404);
    expect((await call(ctx.app, 'POST', `Users/BackupContact/${contact.id}/resend-confirmation`, { body: {} })).status).toBe(401);
    for (let i = 0; i < 4; i++) expect((await resend(owner)).status).toBe(200);
    const refused = await resend(owner);
    expect(refused.status).toBe(429);
    expect(refused.body.errors).toEqual([messages.backupContactConfirmationsTooMany]);
    // Only the newest link works.
    const texts = await db().select().from(textOutbox).where(eq(textOutbox.userId, owner.user.id)).orderBy(textOutbox.id);
    expect(texts).toHaveLength(5);
    expect((await confirm(linkTokenIn(texts[0]!.body))).status).toBe(400);
    expect((await confirm(linkTokenIn(texts[4]!.body))).status).toBe(200);
    expect((await resend(owner)).body.errors).toEqual([messages.backupContactAlreadyConfirmed]);
  });

  it('has no Twilio webhooks without Twilio', async () => {
    expect((await call(ctx.app, 'POST', 'sms/inbound', { body: {} })).status).toBe(404);
  });
});

describe('texts in the mail log', () => {
  const list = (query: string, token = admin.token) => call<MailLogPage>(ctx.app, 'GET', `admin/mail?query=${encodeURIComponent(query)}`, { token });

  it('lists texts beside e-mails, found by the number typed any way, for administrators only', async () => {
    const owner = await signUpOwner(ctx.app);
    await changeMobile(owner, '(314) 555-0150');
    const found = await list('(314) 555-0150');
    expect(found.status).toBe(200);
    expect(found.body.result!.items).toEqual([
      expect.objectContaining({
        queue: 'text',
        recipient: '+13145550150',
        kind: 'phone-code',
        status: 'pending',
        deliveryStatus: null,
        attempts: 0,
        subject: '[hidden] is your Chip Registry code. It works for 10 minutes.',
      } satisfies Partial<MailLogEntry>),
    ]);
    expect((await list('+1314555015')).body.result!.items.length).toBeGreaterThanOrEqual(1);
    expect((await list('0150', owner.token)).status).toBe(403);
  });

  it('sends a failed text again', async () => {
    const owner = await signUpOwner(ctx.app);
    await changeMobile(owner, '(314) 555-0151');
    const text = await newestText(owner.user.id, 'phone-code');
    expect((await call(ctx.app, 'POST', `admin/mail/text/${text.id}/resend`, { token: admin.token })).body.errors).toEqual([messages.mailNotFailed]);
    await db().update(textOutbox).set({ status: 'failed', attempts: 5, lastError: 'Twilio 400 (21602)', deliveryStatus: 'failed' }).where(eq(textOutbox.id, text.id));
    const resent = await call<MailLogEntry>(ctx.app, 'POST', `admin/mail/text/${text.id}/resend`, { token: admin.token });
    expect(resent.body.result).toMatchObject({ queue: 'text', status: 'pending', attempts: 0, lastError: null, deliveryStatus: null });
  });
});

describe("the owner's alert confirmation", () => {
  async function alertTexts(userId: number) {
    return db().select().from(textOutbox).where(and(eq(textOutbox.userId, userId), eq(textOutbox.kind, 'alert-sent')));
  }

  it('is texted to the verified mobile when SMS notifications are on, and not otherwise', async () => {
    await kit.siteNear('63101', 5);
    const verified = await kit.ownerWithLostPet();
    await db().update(users).set({ phoneNumber: '+13145550160', phoneVerifiedAt: new Date(), notifyBySms: true }).where(eq(users.id, verified.user.id));
    await kit.sendAndPay(verified.token, verified.pet.id);
    const [text] = await alertTexts(verified.user.id);
    expect(text).toMatchObject({ recipient: '+13145550160', status: 'pending' });
    expect(text!.body).toMatch(/^Your lost pet alert for Biscuit is on its way to 1 pet-care professional within 50 miles of Saint Louis, MO 63101\. Follow it: https:\/\/registry\.example\.org\/client\/add-alert$/);

    const unverified = await kit.ownerWithLostPet();
    await db().update(users).set({ phoneNumber: '+13145550161', notifyBySms: true }).where(eq(users.id, unverified.user.id));
    await kit.sendAndPay(unverified.token, unverified.pet.id);
    const switchedOff = await kit.ownerWithLostPet();
    await db().update(users).set({ phoneNumber: '+13145550162', phoneVerifiedAt: new Date(), notifyBySms: false }).where(eq(users.id, switchedOff.user.id));
    await kit.sendAndPay(switchedOff.token, switchedOff.pet.id);
    expect([...(await alertTexts(unverified.user.id)), ...(await alertTexts(switchedOff.user.id))]).toEqual([]);
  });
});
