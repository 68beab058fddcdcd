import { connect } from 'node:net';
import { once } from 'node:events';
import { messages, type FoundReportDetail, type FoundReportList, type Pet } from '@petreg/contract';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer, MailMessage } from '../src/adapters/mail/index.js';
import { loadConfig } from '../src/config.js';
import { alertEmails, foundReports, mailOutbox, petAlerts, textOutbox, users } from '../src/db/schema.js';
import { createInboundMailListener } from '../src/modules/relay/listener.js';
import { createAlertReplies, repliesPerSenderPerHour } from '../src/modules/relay/replies.js';
import { sendDueAlertEmails } from '../src/worker/alertEmails.js';
import { alertKit, alertMailSettings } from './alertKit.js';
import { call, createTestApp, registerPet, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

// Replies to lost pet alert e-mails reach the owner through the portal's inbound SMTP listener,
// spoken to over a real socket; the sender learns nothing of the owner.

const domain = 'replies.registry.example';
const publicUrl = 'http://localhost:3000';
let ctx: TestContext;
let port: number;
let listener: ReturnType<typeof createInboundMailListener>;
const { siteNear, profileOf, sendAndPay } = alertKit(() => ctx);
const db = () => ctx.database.db;
const MAX_BYTES = 32 * 1024;

beforeAll(async () => {
  ctx = await createTestApp();
  listener = createInboundMailListener({
    settings: { domain, host: '127.0.0.1', port: 0, maxBytes: MAX_BYTES },
    replies: createAlertReplies({ db: db(), publicUrl }),
    log: { warn: () => {}, info: () => {} },
  });
  port = await listener.listen(0);
});
afterAll(async () => {
  await listener.close();
  await ctx.close();
});

const sent: MailMessage[] = [];
const collector: Mailer = { send: async (message) => void sent.push(message) };

/** An owner (verified mobile) sharing contact info, whose dog is lost; one clinic gets the alert, sent with the relay. */
async function lostDog() {
  const owner = await signUpOwner(ctx.app);
  await db().update(users).set({ phoneVerifiedAt: new Date() }).where(eq(users.id, owner.user.id));
  const registered = await registerPet(ctx.app, owner.token, uniqueChip('985'));
  const saved = await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token: owner.token, body: await profileOf(registered, { shareContactInfo: true }) });
  expect(saved.status).toBe(200);
  const clinic = await siteNear('63101', 3, { phoneNumber: '(314) 555-0188' });
  const alert = await sendAndPay(owner.token, registered.id);
  await sendDueAlertEmails(db(), collector, { ...alertMailSettings, inboundMailDomain: domain });
  const mail = sent.find((m) => m.to === clinic.email)!;
  const [row] = await db().select().from(alertEmails).where(and(eq(alertEmails.alertId, alert.id), eq(alertEmails.recipient, clinic.email!)));
  return { owner, pet: saved.body.result!, clinic: { ...clinic, email: clinic.email! }, mail, replyAddress: `reply-${row!.replyToken}@${domain}`, alertId: alert.id };
}

/**
 * One SMTP conversation over a socket: each command sent after the previous answer; DATA's body is
 * sent (dot-stuffed, ended by a lone dot) after its 354. Answers everything the server wrote, and
 * each command's final reply code.
 */
async function smtp(commands: (string | { data: string })[]) {
  const socket = connect(port, '127.0.0.1');
  let transcript = '';
  let pending: ((reply: string) => void) | null = null;
  let buffer = '';
  socket.on('data', (chunk: Buffer) => {
    transcript += chunk.toString();
    buffer += chunk.toString();
    // A reply is complete at a line "NNN text" (not "NNN-text").
    const done = /(^|\r\n)(\d{3}) [^\r\n]*\r\n$/.exec(buffer);
    if (done && pending) {
      const resolve = pending;
      pending = null;
      const reply = buffer;
      buffer = '';
      resolve(reply);
    }
  });
  const answer = () => new Promise<string>((resolve) => (pending = resolve));
  const codes: number[] = [Number((await answer()).slice(0, 3))];
  for (const command of commands) {
    const next = answer();
    socket.write(typeof command === 'string' ? `${command}\r\n` : `${command.data.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..')}\r\n.\r\n`);
    const reply = await next;
    codes.push(Number(/(\d{3}) [^\r\n]*\r\n$/.exec(reply)![1]));
  }
  socket.end();
  await once(socket, 'close');
  return { transcript, codes };
}

/** A whole reply: greeting, sender, one recipient, the message; answers the codes and the transcript. */
const reply = (to: string, message: string, from = 'frontdesk@clinic.example') =>
  smtp(['EHLO clinic.example', `MAIL FROM:<${from}>`, `RCPT TO:<${to}>`, 'DATA', { data: message }, 'QUIT']);

const message = (headers: string[], body: string) => [...headers, '', body].join('\n');

const reportsOf = (petId: number) => db().select().from(foundReports).where(and(eq(foundReports.petId, petId), isNotNull(foundReports.alertEmailId)));

describe('the alert e-mail with a relay', () => {
  it("carries its own unguessable reply address and nothing of the owner's address, even when the owner shares contact info", async () => {
    const { owner, mail, replyAddress } = await lostDog();
    expect(mail.replyTo).toBe(replyAddress);
    expect(replyAddress).toMatch(new RegExp(`^reply-[0-9a-f]{32}@${domain.replaceAll('.', '\\.')}$`));
    expect(mail.text).toContain('\nOr reply to this e-mail: we pass your words (text only) and your e-mail address to the owner, whose address stays private.\n');
    for (const part of [mail.text, mail.html!, mail.subject, JSON.stringify(mail.headers)]) expect(part).not.toContain(owner.input.email);
  });

  it('reads INBOUND_MAIL_DOMAIN and the listener settings, and refuses a domain that is not one', () => {
    expect(loadConfig({}).inboundMail).toBeNull();
    expect(loadConfig({ INBOUND_MAIL_DOMAIN: 'Replies.Example.org', INBOUND_SMTP_PORT: '2526', INBOUND_MAIL_MAX_KB: '64' }).inboundMail).toEqual({
      domain: 'replies.example.org',
      host: '0.0.0.0',
      port: 2526,
      maxBytes: 65536,
    });
    expect(() => loadConfig({ INBOUND_MAIL_DOMAIN: 'not a domain' })).toThrow('Invalid configuration: INBOUND_MAIL_DOMAIN must be a domain name, such as replies.example.org');
  });
});

describe('a reply through the inbound SMTP listener', () => {
  it("files the reply's text as a found report for the owner, who is e-mailed and texted and sees the professional's address", async () => {
    const { owner, pet, clinic, replyAddress } = await lostDog();
    const { codes, transcript } = await reply(
      replyAddress,
      message(
        [`From: Front Desk <${clinic.email}>`, `To: ${replyAddress}`, 'Subject: Re: Lost dog', 'MIME-Version: 1.0', 'Content-Type: multipart/alternative; boundary="b"'],
        [
          '--b',
          'Content-Type: text/plain; charset=utf-8',
          '',
          'We have Biscuit here, safe.',
          'Call us at the clinic.',
          '',
          'On Mon, Nov 23, 2026 at 9:00 AM Pet Registry wrote:',
          '> LOST DOG: Biscuit',
          '--b',
          'Content-Type: text/html; charset=utf-8',
          '',
          '<p>We have <a href="https://evil.example/pay">Biscuit</a> here</p><img src="https://evil.example/x.gif">',
          '--b--',
        ].join('\n'),
      ),
    );
    expect(codes).toEqual([220, 250, 250, 250, 354, 250, 221]);
    expect(transcript).toContain('250 Reply passed on');

    const [report] = await reportsOf(pet.id);
    expect(report).toMatchObject({
      ownerId: owner.user.id,
      finderName: clinic.name,
      finderEmail: clinic.email,
      finderPhone: '+13145550188',
      message: 'We have Biscuit here, safe.\nCall us at the clinic.',
      location: messages.alertReplyLocation,
    });
    // In the owner's inbox, with the professional's contact.
    const inbox = (await call<FoundReportList>(ctx.app, 'GET', 'found-reports', { token: owner.token })).body.result!;
    expect(inbox.items.map((r) => r.id)).toContain(report!.id);
    const opened = (await call<FoundReportDetail>(ctx.app, 'GET', `found-reports/${report!.id}`, { token: owner.token })).body.result!;
    expect(opened).toMatchObject({ finderEmail: clinic.email, message: 'We have Biscuit here, safe.\nCall us at the clinic.' });

    const [notice] = await db().select().from(mailOutbox).where(and(eq(mailOutbox.recipient, owner.input.email), eq(mailOutbox.kind, 'found-report')));
    expect(notice!.subject).toBe('Reply to your lost pet alert for Biscuit');
    expect(notice!.text).toContain('A pet-care professional who received your lost pet alert for Biscuit replied through the pet registry:\n\n> We have Biscuit here, safe.\n> Call us at the clinic.\n');
    expect(notice!.text).toContain(`\nEmail: ${clinic.email}\n`);
    expect(notice!.html).not.toContain('evil.example');
    const [text] = await db().select().from(textOutbox).where(and(eq(textOutbox.userId, owner.user.id), eq(textOutbox.kind, 'found-report')));
    expect(text!.body).toBe(`${clinic.name} replied to your lost pet alert for Biscuit: "We have Biscuit here, safe. Call us at the clinic." Open: ${publicUrl}/client/found-reports/${report!.id}`);

    // Nothing of the owner in anything the sender received.
    for (const secret of [owner.input.email, owner.input.firstName, owner.input.lastName, '2671']) expect(transcript).not.toContain(secret);
  });

  it('refuses at RCPT an unknown token, another domain, and the address of an alert that ended; one recipient a message', async () => {
    const { pet, owner, replyAddress } = await lostDog();
    const unknown = await smtp(['EHLO x', 'MAIL FROM:<a@b.example>', `RCPT TO:<reply-${'0'.repeat(32)}@${domain}>`, `RCPT TO:<${replyAddress.replace(domain, 'elsewhere.example')}>`, `RCPT TO:<postmaster@${domain}>`, 'QUIT']);
    expect(unknown.codes).toEqual([220, 250, 250, 550, 550, 550, 221]);
    expect(unknown.transcript).toContain('550 5.1.1 No such recipient here');

    const two = await smtp(['EHLO x', 'MAIL FROM:<a@b.example>', `RCPT TO:<${replyAddress.toUpperCase().replace(domain.toUpperCase(), domain)}>`, `RCPT TO:<${replyAddress}>`, 'QUIT']);
    expect(two.codes).toEqual([220, 250, 250, 250, 452, 221]);

    expect((await call(ctx.app, 'PUT', `pet/mark-as-found/${pet.id}`, { token: owner.token })).status).toBe(200);
    const ended = await smtp(['EHLO x', 'MAIL FROM:<a@b.example>', `RCPT TO:<${replyAddress}>`, 'QUIT']);
    expect(ended.codes).toEqual([220, 250, 250, 550, 221]);
    expect(await reportsOf(pet.id)).toEqual([]);
  });

  it('refuses a message past the size limit (552), announced and when sent anyway, and files nothing', async () => {
    const { pet, replyAddress } = await lostDog();
    const announced = await smtp(['EHLO x', `MAIL FROM:<a@b.example> SIZE=${MAX_BYTES + 1}`, 'QUIT']);
    expect(announced.transcript).toContain(`250 SIZE ${MAX_BYTES}\r\n`);
    expect(announced.codes).toEqual([220, 250, 552, 221]);
    const big = await reply(replyAddress, message(['Subject: big'], `We have her.\n${'x'.repeat(MAX_BYTES + 100)}`));
    expect(big.codes).toEqual([220, 250, 250, 250, 354, 552, 221]);
    expect(await reportsOf(pet.id)).toEqual([]);
  });

  it("takes no contact from the reply's headers, and no header a sender writes reaches the owner's e-mail", async () => {
    const { owner, pet, clinic, replyAddress } = await lostDog();
    const injected = await reply(
      replyAddress,
      message(
        [
          `From: =?utf-8?b?${Buffer.from('Kind Vet\r\nBcc: thief@evil.example').toString('base64')}?= <thief@evil.example>`,
          'Reply-To: thief@evil.example',
          `Subject: =?utf-8?b?${Buffer.from('Hello\r\nBcc: thief@evil.example').toString('base64')}?=`,
          'X-Injected: yes\r\nBcc: thief@evil.example',
        ],
        'Found your dog.',
      ),
      'thief@evil.example',
    );
    expect(injected.codes.at(-2)).toBe(250);
    const [report] = await reportsOf(pet.id);
    expect(report).toMatchObject({ finderName: clinic.name, finderEmail: clinic.email, message: 'Found your dog.' });
    const notices = await db().select().from(mailOutbox).where(eq(mailOutbox.recipient, owner.input.email));
    const notice = notices.find((m) => m.kind === 'found-report')!;
    expect(notice.subject).toBe('Reply to your lost pet alert for Biscuit');
    for (const part of [notice.subject, notice.text, notice.html ?? '']) expect(part).not.toContain('thief@evil.example');
    expect(await db().select().from(mailOutbox).where(eq(mailOutbox.recipient, 'thief@evil.example'))).toEqual([]);
  });

  it('refuses a reply with no plain text part (550): HTML is never read', async () => {
    const { pet, replyAddress } = await lostDog();
    const html = await reply(replyAddress, message(['Subject: hi', 'MIME-Version: 1.0', 'Content-Type: text/html'], '<p>We have <a href="https://evil.example">your dog</a></p>'));
    expect(html.codes.at(-2)).toBe(550);
    expect(html.transcript).toContain('550 5.6.0 A reply needs a plain text part');
    expect(await reportsOf(pet.id)).toEqual([]);
  });

  it(`takes ${repliesPerSenderPerHour} replies an hour from one professional, then answers 450 at RCPT`, async () => {
    const { pet, replyAddress } = await lostDog();
    for (let i = 0; i < repliesPerSenderPerHour; i++) expect((await reply(replyAddress, message(['Subject: hi'], `Reply ${i}`))).codes.at(-2)).toBe(250);
    const limited = await reply(replyAddress, message(['Subject: hi'], 'One more'));
    expect(limited.codes.slice(0, 4)).toEqual([220, 250, 250, 450]);
    expect(await reportsOf(pet.id)).toHaveLength(repliesPerSenderPerHour);
    // An hour on, the professional may write again.
    await db().update(foundReports).set({ createdAt: new Date(Date.now() - 3_700_000) }).where(eq(foundReports.petId, pet.id));
    expect((await reply(replyAddress, message(['Subject: hi'], 'Again'))).codes.at(-2)).toBe(250);
    expect((await db().select().from(petAlerts).where(eq(petAlerts.petId, pet.id)))[0]!.status).toBe('paid');
  });
});
