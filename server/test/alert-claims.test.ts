import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MailServerUnavailableError, type Mailer, type MailMessage } from '../src/adapters/mail/index.js';
import { createFileTexter } from '../src/adapters/sms/index.js';
import { alertEmails, mailOutbox } from '../src/db/schema.js';
import { sendDueAlertEmails } from '../src/worker/alertEmails.js';
import { startWorker } from '../src/worker/index.js';
import { claimDue, clockOf, forEachLimited, LEASE_MS, MAILS_AT_ONCE, RENEW_EVERY_MS, SERVER_PAUSE_MS, sendDueMail } from '../src/worker/outbox.js';
import { alertKit, alertMailSettings } from './alertKit.js';
import { createTestApp, type TestContext } from './helpers.js';

/**
 * The claims on alert e-mails: a worker's claim lasts while it runs and runs out within a minute of
 * its death; a stopping worker hands back what it has not started. Time is moved by injected clocks.
 */
let ctx: TestContext;
const kit = alertKit(() => ctx);
const db = () => ctx.database.db;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** A paid alert to `count` directory sites; answers it and its recipients. */
async function alertTo(zip: string, count: number) {
  const { token, pet } = await kit.ownerWithLostPet();
  for (let miles = 1; miles <= count; miles++) await kit.siteNear(zip, miles);
  const alert = await kit.sendAndPay(token, pet.id, { zipCode: zip });
  const recipients = await kit.recipientsOf(alert.id);
  expect(recipients).toHaveLength(count);
  return { alert, recipients };
}

/**
 * A mail server in the middle of a fan-out: it takes the alert's messages and answers none until
 * `answer()`; `busy` resolves once `inFlight` of them wait. Other messages (receipts) go through.
 */
function slowMailServer(recipients: string[], inFlight: number) {
  const taken: MailMessage[] = [];
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  let full!: () => void;
  const busy = new Promise<void>((resolve) => (full = resolve));
  const mailer: Mailer = {
    async send(message) {
      if (!recipients.includes(message.to)) return;
      taken.push(message);
      if (taken.length === inFlight) full();
      await answered;
    },
  };
  return { mailer, taken, busy, answer };
}

const rowsOf = (alertId: number) => db().select().from(alertEmails).where(and(eq(alertEmails.alertId, alertId), eq(alertEmails.kind, 'alert')));

describe('a claimed alert e-mail', () => {
  it("is due again within a minute of its worker's death, and not before its lease runs out", async () => {
    const { alert } = await alertTo('80202', 3);
    const start = Date.now();
    // This worker claims the e-mails and dies: it never renews its claim.
    const claimed = (await claimDue(db(), alertEmails, clockOf(new Date(start)), 100)).filter((r) => r.alertId === alert.id);
    expect(claimed).toHaveLength(3);
    expect(await claimDue(db(), alertEmails, clockOf(new Date(start + LEASE_MS - 5000)), 100)).toEqual([]);
    const again = await claimDue(db(), alertEmails, clockOf(new Date(start + LEASE_MS + 5000)), 100);
    expect(again.map((r) => r.id).sort()).toEqual(claimed.map((r) => r.id).sort());
    expect(LEASE_MS + 5000).toBeLessThanOrEqual(60_000);
    await db().update(alertEmails).set({ status: 'canceled' }).where(eq(alertEmails.alertId, alert.id));
  });

  it('stays claimed while its worker runs, however long the mail server takes, and goes once', async () => {
    const { alert, recipients } = await alertTo('97201', 20);
    const server = slowMailServer(recipients, 16);
    let elapsed = 0;
    const start = Date.now();
    const clock = () => new Date(start + elapsed);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const running = sendDueAlertEmails(db(), server.mailer, alertMailSettings, clock);
      await server.busy;
      // Two minutes pass with 16 messages in flight and 4 waiting; the worker renews its claim.
      for (let renewals = 0; renewals < 8; renewals++) {
        elapsed += RENEW_EVERY_MS;
        vi.advanceTimersByTime(RENEW_EVERY_MS);
        await vi.waitFor(async () => {
          const [renewed] = await db()
            .select({ count: sql<number>`count(*)::int` })
            .from(alertEmails)
            .where(and(eq(alertEmails.alertId, alert.id), sql`${alertEmails.nextAttemptAt} > now() + ${elapsed + LEASE_MS - RENEW_EVERY_MS}::double precision * interval '1 millisecond'`));
          expect(renewed!.count).toBe(20);
        });
        // Another worker, at the same time, finds none of them due.
        expect((await claimDue(db(), alertEmails, clockOf(clock()), 100)).filter((r) => r.alertId === alert.id)).toEqual([]);
      }
      server.answer();
      expect(await running).toMatchObject({ delivered: 20, waiting: 0 });
    } finally {
      vi.useRealTimers();
    }
    expect(server.taken.map((m) => m.to).sort()).toEqual(recipients);
    expect((await rowsOf(alert.id)).every((r) => r.status === 'delivered')).toBe(true);
  });

  it('is handed back at once, unsent, when its worker stops; those in flight are finished first', async () => {
    const { alert, recipients } = await alertTo('02108', 40);
    const server = slowMailServer(recipients, 16);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let stopped: Promise<void>;
    try {
      const stop = startWorker(ctx.app, db(), server.mailer, createFileTexter(ctx.outboxDir), alertMailSettings, { backupAfterMinutes: 15, vetsAfterMinutes: 120 }, {
        publicUrl: 'http://localhost',
        secret: 'test-secret',
        registryName: 'Pet Registry',
        reconfirmMonths: 6,
      });
      // The worker's alert round starts on its timer.
      vi.advanceTimersByTime(5000);
      await server.busy;
      stopped = stop();
    } finally {
      vi.useRealTimers();
    }
    server.answer();
    await stopped;
    const sent = server.taken.map((m) => m.to);
    expect(sent).toHaveLength(16);
    const rows = await rowsOf(alert.id);
    expect(rows.filter((r) => r.status === 'delivered').map((r) => r.recipient).sort()).toEqual([...sent].sort());
    // Another worker takes the rest at once, on the clock as it is.
    const rest = (await claimDue(db(), alertEmails, clockOf(), 100)).filter((r) => r.alertId === alert.id);
    expect(rest.map((r) => r.recipient).sort()).toEqual(recipients.filter((to) => !sent.includes(to)));
    expect(rest.every((r) => r.attempts === 0)).toBe(true);
  });
});

describe('a queued e-mail of the mail outbox', () => {
  it('is due as soon as it is written, and handed back at once when the worker stops', async () => {
    await db().update(mailOutbox).set({ status: 'sent' });
    const queued = await db()
      .insert(mailOutbox)
      .values(['a', 'b', 'c'].map((name) => ({ recipient: `${name}@example.com`, kind: 'password-reset' as const, subject: 'Reset', text: 'Reset' })))
      .returning();
    const stopping = new AbortController();
    const sent: string[] = [];
    // The portal is told to stop while the first e-mail goes.
    const mailer: Mailer = {
      async send(message) {
        sent.push(message.to);
        stopping.abort();
      },
    };
    expect(await sendDueMail(db(), mailer, undefined, stopping.signal)).toBe(1);
    expect(sent).toEqual(['a@example.com']);
    const rest = await claimDue(db(), mailOutbox, clockOf(), 20);
    expect(rest.map((r) => r.id).sort()).toEqual(queued.slice(1).map((r) => r.id).sort());
    expect(rest.every((r) => r.attempts === 0)).toBe(true);
  });

  /** Queues `count` account e-mails, the i-th to the person `person(i)` names, titled by their number. */
  async function queueBurst(count: number, person: (i: number) => number) {
    await db().update(mailOutbox).set({ status: 'sent' });
    return db()
      .insert(mailOutbox)
      .values(Array.from({ length: count }, (_, i) => ({ recipient: `burst-${person(i)}@example.com`, kind: 'email-confirmation' as const, subject: `Mail ${i}`, text: 'Confirm' })))
      .returning();
  }
  const rowsFrom = (first: { id: number }) => db().select().from(mailOutbox).where(sql`${mailOutbox.id} >= ${first.id}`).orderBy(mailOutbox.id);

  it('goes out with the rest of a burst in one round, several at once, each person\'s one after another in the order written', async () => {
    // Each person's e-mails lie among others', over all three batches; one was written with capitals.
    const queued = await queueBurst(252, (i) => i % 42);
    await db().update(mailOutbox).set({ recipient: 'Burst-0@Example.com' }).where(eq(mailOutbox.id, queued[42]!.id));
    const sent: MailMessage[] = [];
    const inFlight = new Set<string>();
    let most = 0;
    let sameTwice = false;
    const mailer: Mailer = {
      async send(message) {
        const person = message.to.toLowerCase();
        if (inFlight.has(person)) sameTwice = true;
        inFlight.add(person);
        most = Math.max(most, inFlight.size);
        // A person's first e-mail of each batch takes longest: sent alongside the next, it would arrive after it.
        await new Promise((resolve) => setTimeout(resolve, Number(message.subject.slice(5)) % 100 < 42 ? 10 : 1));
        inFlight.delete(person);
        sent.push(message);
      },
    };
    expect(await sendDueMail(db(), mailer)).toBe(252);
    expect(sent).toHaveLength(252);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(MAILS_AT_ONCE);
    expect(sameTwice).toBe(false);
    for (let person = 0; person < 42; person++) {
      const written = queued.filter((_, i) => i % 42 === person).map((m) => m.subject);
      expect(sent.filter((m) => m.to.toLowerCase() === `burst-${person}@example.com`).map((m) => m.subject)).toEqual(written);
    }
    expect((await rowsFrom(queued[0]!)).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('hands back the rest of a person\'s e-mails, due at once and untried, when the worker stops between them', async () => {
    const queued = await queueBurst(3, () => 0);
    const stopping = new AbortController();
    const mailer: Mailer = {
      async send() {
        stopping.abort();
      },
    };
    expect(await sendDueMail(db(), mailer, undefined, stopping.signal)).toBe(1);
    const [first, ...rest] = await rowsFrom(queued[0]!);
    expect(first).toMatchObject({ status: 'sent', attempts: 1 });
    expect(rest.every((r) => r.status === 'pending' && r.attempts === 0 && r.nextAttemptAt.getTime() <= Date.now())).toBe(true);
  });

  it('ends the round when the mail server is out of reach: the batch waits for it, the next is not claimed, no attempt is used up', async () => {
    // The first hundred go to one person each but the first, who has three.
    const queued = await queueBurst(150, (i) => (i < 3 ? 0 : i));
    const tried: string[] = [];
    const mailer: Mailer = {
      async send(message) {
        tried.push(message.subject);
        if (tried.length >= 5) throw new MailServerUnavailableError('connect ECONNREFUSED 127.0.0.1:25');
      },
    };
    const before = Date.now();
    expect(await sendDueMail(db(), mailer)).toBe(4);
    // The first person's first e-mail and one each of the next fifteen people; no e-mail once the server was found out of reach.
    expect(tried).toHaveLength(MAILS_AT_ONCE);
    expect(tried).not.toContain('Mail 1');
    const [firstBatch, rest] = [(await rowsFrom(queued[0]!)).slice(0, 100), (await rowsFrom(queued[0]!)).slice(100)];
    expect(firstBatch.filter((r) => r.status === 'sent')).toHaveLength(4);
    const waiting = firstBatch.filter((r) => r.status !== 'sent');
    expect(waiting).toHaveLength(96);
    expect(waiting.every((r) => r.status === 'pending' && r.attempts === 0 && r.lastError === 'Error: connect ECONNREFUSED 127.0.0.1:25')).toBe(true);
    expect(waiting.every((r) => r.nextAttemptAt.getTime() >= before + SERVER_PAUSE_MS - 1000)).toBe(true);
    expect(rest.every((r) => r.status === 'pending' && r.attempts === 0 && r.lastError === null && r.nextAttemptAt.getTime() <= Date.now())).toBe(true);
  });
});

describe('an e-mail from a finder', () => {
  it('is claimed before a burst of other e-mails due before it: a report to the owner or the vets, an owner\'s number to the finder', async () => {
    await db().update(mailOutbox).set({ status: 'sent' });
    await db()
      .insert(mailOutbox)
      .values(Array.from({ length: 150 }, (_, i) => ({ recipient: `queued-${i}@example.com`, kind: 'email-confirmation' as const, subject: 'Confirm', text: 'Confirm' })));
    const fromFinders = await db()
      .insert(mailOutbox)
      .values([
        { recipient: 'owner@example.com', kind: 'found-report' as const, subject: 'Someone found Rex', text: 'Found' },
        { recipient: 'finder@example.com', kind: 'finder-contact' as const, subject: "Rex's owner sent you a phone number", text: 'Call' },
        { recipient: 'vet@example.com', kind: 'found-report-vet' as const, subject: 'Found: Rex', text: 'Found' },
      ])
      .returning();
    const sent: string[] = [];
    const mailer: Mailer = {
      async send(message) {
        sent.push(message.subject);
      },
    };
    expect(await sendDueMail(db(), mailer)).toBe(153);
    // In the first batch, among the first e-mails started.
    for (const mail of fromFinders) expect(sent.indexOf(mail.subject)).toBeLessThan(MAILS_AT_ONCE);
    const rows = await db().select().from(mailOutbox).where(inArray(mailOutbox.id, fromFinders.map((m) => m.id)));
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
      ['sent', 1],
    ]);
  });
});

describe('a failure while the mail outbox sends', () => {
  it('starts no more e-mails, not even the next of a person whose first is in flight, and is thrown once those in flight are through', async () => {
    await db().update(mailOutbox).set({ status: 'sent' });
    // The database refuses to record one e-mail sent, as it would while it is out of reach.
    await db().execute(sql`create or replace function refuse_one_mark() returns trigger language plpgsql as $$
      begin
        if new.status = 'sent' and new.recipient = 'unmarked@example.com' then raise exception 'the mark is refused'; end if;
        return new;
      end $$`);
    await db().execute(sql`create trigger refuse_one_mark before update on mail_outbox for each row execute function refuse_one_mark()`);
    try {
      const queued = await db()
        .insert(mailOutbox)
        .values([
          { recipient: 'slow@example.com', kind: 'receipt' as const, subject: 'First', text: 'x' },
          { recipient: 'unmarked@example.com', kind: 'receipt' as const, subject: 'Unmarked', text: 'x' },
          { recipient: 'slow@example.com', kind: 'receipt' as const, subject: 'Second', text: 'x' },
        ])
        .returning();
      const tried: string[] = [];
      const mailer: Mailer = {
        async send(message) {
          tried.push(message.subject);
          if (message.subject === 'First') await new Promise((resolve) => setTimeout(resolve, 100));
        },
      };
      await expect(sendDueMail(db(), mailer)).rejects.toThrow();
      expect(tried.sort()).toEqual(['First', 'Unmarked']);
      const rows = await db().select().from(mailOutbox).where(inArray(mailOutbox.id, queued.map((m) => m.id))).orderBy(mailOutbox.id);
      // The one in flight was marked; the others stay claimed until their lease runs out.
      expect(rows.map((r) => [r.subject, r.status])).toEqual([
        ['First', 'sent'],
        ['Unmarked', 'sending'],
        ['Second', 'sending'],
      ]);
    } finally {
      await db().execute(sql`drop trigger refuse_one_mark on mail_outbox`);
      await db().update(mailOutbox).set({ status: 'sent' });
    }
  });
});

describe('work over claimed rows, so many at a time', () => {
  it('starts nothing after a failure, and throws it only once those in flight are through', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = forEachLimited([1, 2, 3, 4, 5, 6], 2, async (item) => {
      started.push(item);
      if (item === 2) throw new Error('the database is gone');
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished.push(item);
    });
    await expect(run).rejects.toThrow('the database is gone');
    expect(started).toEqual([1, 2]);
    expect(finished).toEqual([1]);
  });
});
