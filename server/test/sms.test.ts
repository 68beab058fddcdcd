import { failure, messages, type BackupContact } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import twilio from 'twilio';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTwilioTexter } from '../src/adapters/sms/twilio.js';
import { loadConfig, type Env } from '../src/config.js';
import { backupContacts, textOptOuts, textOutbox } from '../src/db/schema.js';
import { queueTexts } from '../src/modules/texts/outbox.js';
import { sendDueTexts } from '../src/worker/texts.js';
import { call, createTestApp, signUpOwner, type TestContext } from './helpers.js';
import { accountSid, localTwilio } from './localTwilio.js';

const authToken = 'twilio-auth-token-for-tests';
const publicUrl = 'https://registry.example.org';

const refusal = (status: number, code: number, message: string) => ({
  status,
  json: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});

let peer: Awaited<ReturnType<typeof localTwilio>>;
let ctx: TestContext;
let env: Env;
const db = () => ctx.database.db;
const rows = () => db().select().from(textOutbox).orderBy(textOutbox.id);
const texter = (timeoutMs?: number, apiUrl = peer.url) =>
  createTwilioTexter({ ...loadConfig({ ...env, TWILIO_API_URL: apiUrl }).twilio! }, `${publicUrl}/api/v2/sms/status`, timeoutMs);

beforeAll(async () => {
  peer = await localTwilio();
  env = { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM: '(314) 555-0100', TWILIO_API_URL: peer.url, PUBLIC_URL: publicUrl };
  ctx = await createTestApp({ env });
});
afterAll(async () => {
  await ctx.close();
  await peer.close();
});
beforeEach(async () => {
  await db().delete(textOutbox);
  await db().delete(textOptOuts);
  peer.received.length = 0;
  peer.taken.length = 0;
  peer.listed.length = 0;
  peer.answer(() => ({ status: 201, json: {} }));
  peer.lookups(() => 'list');
});

const queueOne = (to = '+13145550101', kind: 'found-report' | 'phone-code' = 'found-report') => queueTexts(db(), [{ to, kind, body: 'Someone found Biscuit.' }]);
const healthy = async () => (await call(ctx.app, 'GET', 'utilities/health-check')).status;

describe('texts through Twilio', () => {
  it('sends each text once through the Messages API, with the sender, the status callback and the SID recorded', async () => {
    await queueOne();
    expect(await sendDueTexts(db(), texter())).toEqual({ sent: 1, canceled: 0 });
    expect(await sendDueTexts(db(), texter())).toEqual({ sent: 0, canceled: 0 });
    expect(peer.received).toHaveLength(1);
    const [message] = peer.received;
    expect(message!.path).toBe(`/2010-04-01/Accounts/${accountSid}/Messages.json`);
    expect(Object.fromEntries(message!.form)).toEqual({
      To: '+13145550101',
      From: '+13145550100',
      Body: 'Someone found Biscuit.',
      StatusCallback: `${publicUrl}/api/v2/sms/status`,
    });
    expect(message!.authorization).toBe(`Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`);
    const [text] = await rows();
    expect(text).toMatchObject({ status: 'sent', attempts: 1, providerId: 'SM00000000000000000000000000000001' });
  });

  it('sends through a Messaging Service when one is set instead of a number', async () => {
    const messagingServiceSid = `MG${'fedcba9876543210'.repeat(2)}`;
    const settings = loadConfig({ ...env, TWILIO_FROM: '', TWILIO_MESSAGING_SERVICE_SID: messagingServiceSid }).twilio!;
    await queueOne();
    await sendDueTexts(db(), createTwilioTexter(settings, `${publicUrl}/api/v2/sms/status`));
    expect(peer.received[0]!.form.get('MessagingServiceSid')).toBe(messagingServiceSid);
    expect(peer.received[0]!.form.has('From')).toBe(false);
  });

  it('fails at once a number Twilio refuses for good, and records the opt-out of one that answered STOP', async () => {
    await queueOne('+13145550101');
    await queueOne('+13145550102');
    peer.answer((form) =>
      form.get('To') === '+13145550101'
        ? refusal(400, 21211, "The 'To' number +13145550101 is not a valid phone number.")
        : refusal(400, 21610, 'Attempt to send to unsubscribed recipient'),
    );
    expect(await sendDueTexts(db(), texter())).toEqual({ sent: 0, canceled: 0 });
    const [invalid, unsubscribed] = await rows();
    expect(invalid).toMatchObject({ status: 'failed', attempts: 1 });
    expect(invalid!.lastError).toContain('21211');
    expect(unsubscribed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(await db().select().from(textOptOuts)).toEqual([expect.objectContaining({ phone: '+13145550102' })]);
    // Nothing more goes to either, ever.
    await sendDueTexts(db(), texter(), new Date(Date.now() + 3600_000));
    expect(peer.received).toHaveLength(2);
  });

  it.each([
    ['a 500', () => refusal(500, 20500, 'Internal Server Error')],
    ['a 429', () => refusal(429, 20429, 'Too Many Requests')],
  ])('waits without using an attempt when Twilio answers %s', async (_name, answer) => {
    await queueOne();
    peer.answer(answer);
    await sendDueTexts(db(), texter());
    const [text] = await rows();
    expect(text).toMatchObject({ status: 'pending', attempts: 0 });
    expect(text!.lastError).toMatch(/Twilio (500|429)/);
    expect(await healthy()).toBe(200);
    peer.answer(() => ({ status: 201, json: {} }));
    await sendDueTexts(db(), texter(), new Date(Date.now() + 61_000));
    expect((await rows())[0]).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('waits without using an attempt while Twilio is out of reach', async () => {
    const closed = await localTwilio();
    await closed.close();
    await queueOne();
    await sendDueTexts(db(), texter(undefined, closed.url));
    const [text] = await rows();
    expect(text).toMatchObject({ status: 'pending', attempts: 0 });
    expect(text!.lastError).toContain('Twilio out of reach');
  });

  it("gives up on a slow Twilio after the timeout, the text waiting, while the portal's answers stay quick", async () => {
    await queueOne();
    peer.answer(() => 'hang');
    const run = sendDueTexts(db(), texter(500));
    const started = Date.now();
    expect(await healthy()).toBe(200);
    expect(Date.now() - started).toBeLessThan(400);
    await run;
    const [text] = await rows();
    expect(text).toMatchObject({ status: 'pending', attempts: 0 });
    expect(text!.lastError).toMatch(/timeout/i);
  });

  it('texts once when Twilio took the text but its answer never came: the retry finds it at Twilio and sends nothing', async () => {
    await queueOne();
    peer.answer(() => 'accept-then-hang');
    await sendDueTexts(db(), texter(300));
    const [waiting] = await rows();
    expect(waiting).toMatchObject({ status: 'pending', attempts: 0, providerId: null });
    expect(waiting!.outcomeUnknownSince).not.toBeNull();
    expect(peer.taken).toHaveLength(1);

    peer.answer(() => ({ status: 201, json: {} }));
    expect(await sendDueTexts(db(), texter(), new Date(Date.now() + 61_000))).toEqual({ sent: 1, canceled: 0 });
    // One text reached the provider, and the outbox holds its SID.
    expect(peer.received).toHaveLength(1);
    expect(peer.taken).toHaveLength(1);
    expect((await rows())[0]).toMatchObject({ status: 'sent', attempts: 1, providerId: peer.taken[0]!.sid });
    // Asked by number, from the portal's number.
    expect(Object.fromEntries(peer.listed[0]!.form)).toMatchObject({ To: '+13145550101', From: '+13145550100' });
    expect(peer.listed[0]!.path).toBe(`/2010-04-01/Accounts/${accountSid}/Messages.json`);
  });

  it('sends again when the timed-out text is not at Twilio, and never takes an earlier text with the same words for it', async () => {
    // The same words went to the number before, and the outbox holds that text's SID.
    await queueOne();
    await sendDueTexts(db(), texter());
    await queueOne();
    peer.answer(() => 'hang');
    await sendDueTexts(db(), texter(300));
    peer.answer(() => ({ status: 201, json: {} }));
    await sendDueTexts(db(), texter(), new Date(Date.now() + 61_000));
    const [first, second] = await rows();
    expect(peer.taken.map((m) => m.sid)).toEqual([second!.providerId, first!.providerId]);
    expect(second).toMatchObject({ status: 'sent', attempts: 1 });
    expect(second!.providerId).not.toBe(first!.providerId);
  });

  it('keeps a timed-out text waiting, unsent, while Twilio cannot say whether it took it', async () => {
    await queueOne();
    peer.answer(() => 'accept-then-hang');
    await sendDueTexts(db(), texter(300));
    peer.answer(() => ({ status: 201, json: {} }));
    peer.lookups(() => refusal(503, 20503, 'Service Unavailable'));
    await sendDueTexts(db(), texter(), new Date(Date.now() + 61_000));
    expect((await rows())[0]).toMatchObject({ status: 'pending', attempts: 0, providerId: null });
    expect(peer.received).toHaveLength(1);
    peer.lookups(() => 'list');
    await sendDueTexts(db(), texter(), new Date(Date.now() + 122_000));
    expect((await rows())[0]).toMatchObject({ status: 'sent', providerId: peer.taken[0]!.sid });
    expect(peer.received).toHaveLength(1);
  });

  it('tries again later, using an attempt, after another refusal', async () => {
    await queueOne();
    peer.answer(() => refusal(400, 21602, 'Message body is required.'));
    await sendDueTexts(db(), texter());
    expect((await rows())[0]).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await rows())[0]!.lastError).toContain('21602');
  });
});

/** Twilio's webhook call: the form, signed with the auth token over the public address. */
function twilioCall(path: string, form: Record<string, string>, signature?: string) {
  const url = `${publicUrl}/api/v2/${path}`;
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v2/${path}`,
    payload: new URLSearchParams(form).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature ?? twilio.getExpectedTwilioSignature(authToken, url, form),
    },
  });
}

describe('delivery reports (POST sms/status)', () => {
  async function sentText() {
    await queueOne();
    await sendDueTexts(db(), texter());
    return (await rows())[0]!;
  }
  const report = (sid: string, status: string, extra: Record<string, string> = {}) => ({
    AccountSid: accountSid,
    MessageSid: sid,
    SmsSid: sid,
    MessageStatus: status,
    SmsStatus: status,
    To: '+13145550101',
    From: '+13145550100',
    ApiVersion: '2010-04-01',
    ...extra,
  });

  it("records Twilio's delivery report on the text, signed", async () => {
    const text = await sentText();
    const answer = await twilioCall('sms/status', report(text.providerId!, 'delivered'));
    expect(answer.statusCode).toBe(204);
    expect((await rows())[0]).toMatchObject({ status: 'sent', deliveryStatus: 'delivered' });
    // A late "sent" report does not undo what is final.
    await twilioCall('sms/status', report(text.providerId!, 'sent'));
    expect((await rows())[0]!.deliveryStatus).toBe('delivered');
  });

  it('marks an undelivered text failed with the error code', async () => {
    const text = await sentText();
    expect((await twilioCall('sms/status', report(text.providerId!, 'undelivered', { ErrorCode: '30003' }))).statusCode).toBe(204);
    const [after] = await rows();
    expect(after).toMatchObject({ status: 'failed', deliveryStatus: 'undelivered', lastError: 'Not delivered (undelivered, Twilio error 30003)' });
  });

  it('refuses a report whose signature is wrong or missing (403), and changes nothing', async () => {
    const text = await sentText();
    const forged = await twilioCall('sms/status', report(text.providerId!, 'failed'), 'c2lnbmF0dXJl');
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toEqual(failure([messages.smsSignatureInvalid]));
    // Signed for other fields than those sent.
    const url = `${publicUrl}/api/v2/sms/status`;
    const other = twilio.getExpectedTwilioSignature(authToken, url, report(text.providerId!, 'delivered'));
    expect((await twilioCall('sms/status', report(text.providerId!, 'failed'), other)).statusCode).toBe(403);
    expect((await rows())[0]).toMatchObject({ status: 'sent', deliveryStatus: null });
  });

  it('answers a SID the portal never sent with 204 and changes nothing', async () => {
    await sentText();
    expect((await twilioCall('sms/status', report('SM99999999999999999999999999999999', 'failed'))).statusCode).toBe(204);
    expect((await rows())[0]).toMatchObject({ status: 'sent', deliveryStatus: null });
  });
});

describe('replies (POST sms/inbound)', () => {
  const inbound = (from: string, body: string) => ({ AccountSid: accountSid, MessageSid: 'SM1', From: from, To: '+13145550100', Body: body, NumMedia: '0' });

  it('STOP cancels what waits for the number, START lifts it; the answer is empty TwiML', async () => {
    const stop = await twilioCall('sms/inbound', inbound('+13145550101', ' stop '));
    expect(stop.statusCode).toBe(200);
    expect(stop.headers['content-type']).toContain('text/xml');
    expect(stop.body).toContain('<Response/>');
    await queueOne();
    expect(await sendDueTexts(db(), texter())).toEqual({ sent: 0, canceled: 1 });
    expect(peer.received).toHaveLength(0);

    expect((await twilioCall('sms/inbound', inbound('+13145550101', 'START'))).statusCode).toBe(200);
    await queueOne();
    expect(await sendDueTexts(db(), texter())).toEqual({ sent: 1, canceled: 0 });
  });

  it.each(['STOPALL', 'unsubscribe', 'Cancel', 'END', 'QUIT'])('%s stops texts too, and a mere sentence with the word does not', async (word) => {
    await twilioCall('sms/inbound', inbound('+13145550101', word));
    await twilioCall('sms/inbound', inbound('+13145550102', `please do not ${word} the search`));
    expect((await db().select().from(textOptOuts)).map((o) => o.phone)).toEqual(['+13145550101']);
  });

  it('YES from a backup contact confirms the number on every contact asked, and lifts a STOP', async () => {
    const owner = await signUpOwner(ctx.app);
    const other = await signUpOwner(ctx.app);
    const add = (token: string, phoneNumber: string) => call<BackupContact>(ctx.app, 'POST', 'Users/backup-contact', { token, body: { name: 'Robin Doe', phoneNumber } });
    const asked = (await add(owner.token, '(314) 555-0177')).body.result!;
    await add(other.token, '314-555-0177');
    const unrelated = (await add(owner.token, '(314) 555-0178')).body.result!;
    expect(asked.phoneConfirmed).toBe(false);
    await twilioCall('sms/inbound', inbound('+13145550177', 'STOP'));
    expect((await twilioCall('sms/inbound', inbound('+13145550177', 'Yes'))).statusCode).toBe(200);
    const mine = (await call<BackupContact[]>(ctx.app, 'GET', 'Users/backup-contacts', { token: owner.token })).body.result!;
    expect(mine.map((c) => [c.id, c.phoneConfirmed])).toEqual([
      [asked.id, true],
      [unrelated.id, false],
    ]);
    expect((await call<BackupContact[]>(ctx.app, 'GET', 'Users/backup-contacts', { token: other.token })).body.result![0]!.phoneConfirmed).toBe(true);
    expect(await db().select().from(textOptOuts).where(eq(textOptOuts.phone, '+13145550177'))).toEqual([]);
  });

  it('YES confirms only a request made in the last 7 days, as long as its link works', async () => {
    const owner = await signUpOwner(ctx.app);
    const add = (phoneNumber: string) => call<BackupContact>(ctx.app, 'POST', 'Users/backup-contact', { token: owner.token, body: { name: 'Robin Doe', phoneNumber } });
    const old = (await add('(314) 555-0181')).body.result!;
    const recent = (await add('(314) 555-0182')).body.result!;
    await db()
      .update(backupContacts)
      .set({ confirmationSentAt: new Date(Date.now() - 7 * 24 * 3600_000 - 60_000) })
      .where(eq(backupContacts.id, old.id));
    await db()
      .update(backupContacts)
      .set({ confirmationSentAt: new Date(Date.now() - 6 * 24 * 3600_000) })
      .where(eq(backupContacts.id, recent.id));
    await twilioCall('sms/inbound', inbound('+13145550181', 'YES'));
    await twilioCall('sms/inbound', inbound('+13145550182', 'YES'));
    const mine = (await call<BackupContact[]>(ctx.app, 'GET', 'Users/backup-contacts', { token: owner.token })).body.result!;
    expect(mine.map((c) => [c.id, c.phoneConfirmed])).toEqual([
      [old.id, false],
      [recent.id, true],
    ]);
  });

  it('refuses an unsigned reply', async () => {
    expect((await twilioCall('sms/inbound', inbound('+13145550101', 'STOP'), 'bm9wZQ==')).statusCode).toBe(403);
    expect(await db().select().from(textOptOuts)).toEqual([]);
  });
});
