import { and, eq } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type Mailer } from '../src/adapters/mail/index.js';
import { alertEmails, users } from '../src/db/schema.js';
import { sendDueAlertEmails } from '../src/worker/alertEmails.js';
import { claimDue, clockOf } from '../src/worker/outbox.js';
import { alertKit, alertMailSettings } from './alertKit.js';
import { createTestApp, freePort, type TestContext } from './helpers.js';

/**
 * The alert e-mails through a real SMTP conversation: a local smtp-server that accepts, refuses
 * some recipients for good (550 on RCPT), defers one (450), closes on one message after DATA (421),
 * and is down for a while. Every message that reaches it is parsed with mailparser.
 */
interface Received {
  to: string;
  /** Every recipient of the SMTP envelope. */
  envelope: string[];
  mail: ParsedMail;
}

let ctx: TestContext;
const kit = alertKit(() => ctx);
const received: Received[] = [];
const refused = new Set<string>();
/** Addresses answered 450 (RCPT) or 421 (after DATA) this many more times. */
const deferrals = new Map<string, number>();
const dropsMidData = new Map<string, number>();
let sink: SMTPServer | null = null;
let port: number;
let mailer: Mailer;

/** The server stops listening (mid run) once it has taken this many messages in all. */
let stopAfter = Infinity;

function startSink(): Promise<void> {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // Going down means going down: the pool's idle connections are cut, not waited for.
    closeTimeout: 100,
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      if (refused.has(to)) return callback(Object.assign(new Error('5.1.1 No such mailbox'), { responseCode: 550 }));
      const deferred = deferrals.get(to) ?? 0;
      if (deferred > 0) {
        deferrals.set(to, deferred - 1);
        return callback(Object.assign(new Error('4.2.1 Mailbox busy, try later'), { responseCode: 450 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo[0]!.address.toLowerCase();
      simpleParser(stream)
        .then((mail) => {
          const drops = dropsMidData.get(to) ?? 0;
          if (drops > 0) {
            dropsMidData.set(to, drops - 1);
            return callback(Object.assign(new Error('4.3.2 Shutting down'), { responseCode: 421 }));
          }
          // Going down: a message whose data arrives after the server began to stop is not taken.
          if (sink !== server) return callback(Object.assign(new Error('4.3.2 Shutting down'), { responseCode: 421 }));
          received.push({ to, envelope: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
          if (received.length === stopAfter) void stopSink();
        })
        .catch(callback);
    },
  });
  sink = server;
  return new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
}

function stopSink(): Promise<void> {
  const server = sink!;
  sink = null;
  return new Promise((resolve) => server.close(() => resolve()));
}

beforeAll(async () => {
  ctx = await createTestApp();
  port = await freePort();
  mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: alertMailSettings.mailFrom, outboxDir: ctx.outboxDir });
});
afterAll(async () => {
  if (sink) await stopSink();
  mailer.close?.();
  await ctx.close();
});

const MINUTE = 60_000;
const send = (now: Date) => sendDueAlertEmails(ctx.database.db, mailer, alertMailSettings, now);

describe('alert e-mails over SMTP', () => {
  it('loses none and sends none twice through refusals, deferrals, a dropped message and an outage', async () => {
    const { token, pet } = await kit.ownerWithLostPet({ name: 'Rex "the <Great>"' });
    const sites = [];
    for (let miles = 1; miles <= 8; miles++) sites.push(await kit.siteNear('94103', miles));
    const [refusedA, refusedB, deferred, dropped] = sites.map((s) => s.email!);
    refused.add(refusedA!).add(refusedB!);
    deferrals.set(deferred!, 2);
    dropsMidData.set(dropped!, 1);
    const alert = await kit.sendAndPay(token, pet.id, { zipCode: '94103', incidentDescription: 'Wearing a <b>red</b> collar & tag' });
    const everyone = await kit.recipientsOf(alert.id);
    expect(everyone).toHaveLength(alert.recipientsCount);
    const accepted = everyone.filter((address) => !refused.has(address));
    const rowsOf = () => ctx.database.db.select().from(alertEmails).where(and(eq(alertEmails.alertId, alert.id), eq(alertEmails.kind, 'alert')));

    // The mail server is down: every message waits for it, using up no attempt; none is lost.
    const start = Date.now();
    const down = await send(new Date(start));
    expect(down).toMatchObject({ delivered: 0, bounced: 0, retried: 0, waiting: everyone.length });
    const waiting = await rowsOf();
    expect(waiting.every((r) => r.status === 'pending' && r.attempts === 0)).toBe(true);
    expect(waiting.find((r) => r.lastError)!.lastError).toMatch(/ECONNREFUSED/);
    expect(await send(new Date(start + 30_000))).toMatchObject({ delivered: 0, waiting: 0 });

    // Back up: accepted ones delivered, refused ones bounced, the deferred one (450) tried again
    // later, the dropped one (421: the server is going away) waits for the server.
    await startSink();
    const up = await send(new Date(start + 2 * MINUTE));
    expect(up).toMatchObject({ delivered: accepted.length - 2, bounced: 2, retried: 1, waiting: 1 });

    // A worker claims the two still due and dies before sending: they stay claimed until the claim runs out, within a minute.
    const claimed = await claimDue(ctx.database.db, alertEmails, clockOf(new Date(start + 10 * MINUTE)), 100);
    expect(claimed.map((r) => r.recipient).sort()).toEqual([deferred, dropped].sort());
    expect(await send(new Date(start + 10 * MINUTE + 40_000))).toMatchObject({ delivered: 0, retried: 0, waiting: 0 });
    // After the claim: the dropped one goes through; the deferred is refused once more, then accepted.
    expect(await send(new Date(start + 11 * MINUTE))).toMatchObject({ delivered: 1, retried: 1 });
    expect(await send(new Date(start + 60 * MINUTE))).toMatchObject({ delivered: 1, retried: 0 });
    expect(await send(new Date(start + 24 * 60 * MINUTE))).toEqual({ delivered: 0, bounced: 0, retried: 0, waiting: 0, canceled: 0 });

    const rows = await rowsOf();
    expect(rows.filter((r) => r.status === 'delivered').map((r) => r.recipient).sort()).toEqual(accepted);
    expect(rows.filter((r) => r.status === 'bounced').map((r) => r.recipient).sort()).toEqual([refusedA, refusedB].sort());
    expect(rows.find((r) => r.recipient === refusedA)!.lastError).toContain('550');
    const mine = received.filter((r) => everyone.includes(r.to));
    expect(mine.map((r) => r.to).sort()).toEqual(accepted);

    const { mail } = mine[0]!;
    const row = rows.find((r) => r.recipient === mine[0]!.to)!;
    expect(mail.subject).toBe('Lost dog: Rex "the <Great>", last seen near San Francisco, CA 94103');
    expect(mail.from?.value).toEqual([{ address: 'alerts@registry.example', name: 'Pet Registry' }]);
    expect(mail.headers.get('list')).toEqual({
      unsubscribe: { url: `http://localhost:3000/api/v2/email/unsubscribe/${row.token}`, mail: `alerts@registry.example?subject=unsubscribe%20${row.token}` },
      'unsubscribe-post': { name: 'List-Unsubscribe=One-Click' },
    });
    const raw = (key: string) => mail.headerLines.find((h) => h.key === key)?.line.replace(/\r?\n\s+/g, ' ');
    expect(raw('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(mail.html).toContain('Rex &#34;the &#60;Great&#62;&#34;');
    expect(mail.html).toContain('Wearing a &#60;b&#62;red&#60;/b&#62; collar &#38; tag');
    expect(mail.html).not.toMatch(/<b>red|<Great>/);
    expect(mail.text).toContain("In the owner's words:\n> Wearing a <b>red</b> collar & tag\n");
    expect(mail.html).toContain(`http://localhost:3000/api/v2/email/open/${row.token}.gif`);

    // The owner reads the same through the stats.
    const stats = await ctx.app.inject({ method: 'GET', url: `/api/v2/email/${alert.id}/getEmailStats`, headers: { authorization: `Bearer ${token}` } });
    expect(stats.json().result).toEqual({ counted: everyone.length, delivered: accepted.length, opened: 0, bounced: 2, automaticOpens: 0 });
  });

  it('goes down in the middle of a run: what the server took is delivered, the rest waits, nothing twice', async () => {
    const { token, pet } = await kit.ownerWithLostPet();
    for (let miles = 1; miles <= 6; miles++) await kit.siteNear('55401', miles);
    const alert = await kit.sendAndPay(token, pet.id, { zipCode: '55401' });
    const everyone = await kit.recipientsOf(alert.id);
    const before = received.length;
    // The server stops once it has taken two of them; the messages after those find it gone.
    const firstTwo: Promise<void>[] = [];
    const failing: Mailer = {
      async send(message) {
        if (firstTwo.length < 2) {
          const sent = mailer.send(message);
          firstTwo.push(sent);
          return sent;
        }
        await Promise.allSettled(firstTwo);
        if (sink) await stopSink();
        return mailer.send(message);
      },
    };
    const start = Date.now();
    const first = await sendDueAlertEmails(ctx.database.db, failing, alertMailSettings, new Date(start));
    expect(first).toMatchObject({ delivered: 2, retried: 0, waiting: everyone.length - 2 });
    await startSink();
    const second = await send(new Date(start + 5 * MINUTE));
    expect(first.delivered + second.delivered).toBe(everyone.length);
    const mine = received.slice(before).filter((r) => everyone.includes(r.to));
    expect(mine.map((r) => r.to).sort()).toEqual(everyone);
  });

  it('stops listening by itself in the middle of a fan-out: the rest waits, and back up each recipient gets it once', async () => {
    if (!sink) await startSink();
    const { token, pet } = await kit.ownerWithLostPet();
    for (let miles = 1; miles <= 24; miles++) await kit.siteNear('60601', miles / 2);
    const alert = await kit.sendAndPay(token, pet.id, { zipCode: '60601' });
    const everyone = await kit.recipientsOf(alert.id);
    const before = received.length;
    // The server takes five of the run's e-mails (sixteen go at once), then stops listening and drops its connections.
    stopAfter = before + 5;
    const start = Date.now();
    const first = await send(new Date(start));
    expect(sink).toBeNull();
    expect(first.delivered).toBe(5);
    expect(first).toMatchObject({ bounced: 0, retried: 0, waiting: everyone.length - 5 });
    const rows = await kit.recipientsOf(alert.id);
    expect(rows).toEqual(everyone);
    // Nothing is lost while it is down; back up, the rest goes, each once.
    stopAfter = Infinity;
    expect(await send(new Date(start + 30_000))).toMatchObject({ delivered: 0, waiting: 0 });
    await startSink();
    expect(await send(new Date(start + 2 * MINUTE))).toMatchObject({ delivered: everyone.length - 5, retried: 0, waiting: 0 });
    const mine = received.slice(before).filter((r) => everyone.includes(r.to));
    expect(mine.map((r) => r.to).sort()).toEqual(everyone);
  });

  it("carries a Reply-To to the owner's address only when the owner shares contact info, and only as one address", async () => {
    if (!sink) await startSink();
    const alertTo = async (zip: string, shareContactInfo: boolean) => {
      const owner = await kit.ownerWithLostPet({ shareContactInfo });
      const clinic = await kit.siteNear(zip, 1);
      await kit.sendAndPay(owner.token, owner.pet.id, { zipCode: zip });
      return { owner, clinic: clinic.email!.toLowerCase() };
    };
    const shared = await alertTo('97201', true);
    const kept = await alertTo('33101', false);
    const broken = await alertTo('02108', true);
    // A stored address from before the rules, with a line break and a second address in it.
    const hostile = `${broken.owner.user.data.email},\r\nBcc: thief@evil.example`;
    await ctx.database.db.update(users).set({ email: hostile }).where(eq(users.id, broken.owner.user.id));
    await send(new Date(Date.now() + MINUTE));
    const got = (clinic: string) => received.find((r) => r.to === clinic)!;

    const withContact = got(shared.clinic).mail;
    expect(withContact.replyTo?.value).toEqual([{ address: shared.owner.user.data.email, name: '' }]);
    expect(withContact.html).toContain('<a href="tel:+14155552671" style="white-space:nowrap">(415) 555 - 2671</a>');
    expect(withContact.text).toContain("Owner's phone: (415) 555 - 2671");

    const withoutContact = got(kept.clinic);
    expect(withoutContact.mail.replyTo).toBeUndefined();
    expect(withoutContact.mail.headerLines.map((h) => h.key)).not.toContain('reply-to');
    for (const part of [withoutContact.mail.text!, withoutContact.mail.html as string]) {
      expect(part).not.toContain(kept.owner.user.data.email);
      expect(part).not.toContain('2671');
    }

    const guarded = got(broken.clinic);
    expect(guarded.envelope).toEqual([broken.clinic]);
    expect(guarded.mail.replyTo).toBeUndefined();
    expect(guarded.mail.bcc).toBeUndefined();
    expect(JSON.stringify(guarded.mail.headerLines)).not.toContain('thief');
    expect(received.filter((r) => r.envelope.some((address) => address.includes('thief')))).toEqual([]);
  });
});
