import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFileTexter, NumberRefusedError, TextProviderUnavailableError, type Texter, type TextMessage } from '../src/adapters/sms/index.js';
import { textOptOuts, textOutbox } from '../src/db/schema.js';
import { queueTexts } from '../src/modules/texts/outbox.js';
import { sendDueTexts } from '../src/worker/texts.js';
import { createTestApp, type TestContext } from './helpers.js';

let ctx: TestContext;
const db = () => ctx.database.db;
const rows = () => db().select().from(textOutbox).orderBy(textOutbox.id);

/** A provider that answers each text as `answer` says, and remembers what it took. */
function provider(answer: (message: TextMessage) => Error | undefined = () => undefined) {
  const taken: TextMessage[] = [];
  const texter: Texter = {
    async send(message) {
      const error = answer(message);
      if (error) throw error;
      taken.push(message);
      return { providerId: `SM${taken.length}` };
    },
  };
  return { texter, taken };
}

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await db().delete(textOutbox);
  await db().delete(textOptOuts);
});

describe('the text outbox', () => {
  it('queues texts in E.164, leaves out what is not a phone number, and cuts a text at its ceiling', async () => {
    const queued = await queueTexts(db(), [
      { to: '(314) 555-0101', kind: 'found-report', body: 'x'.repeat(2000) },
      { to: 'not a phone', kind: 'found-report', body: 'lost' },
    ]);
    expect(queued).toBe(1);
    const [text] = await rows();
    expect(text).toMatchObject({ recipient: '+13145550101', status: 'pending', kind: 'found-report' });
    expect(text!.body).toHaveLength(1600);
  });

  it('sends each due text once, with the provider id, and the file texter writes it under its folder', async () => {
    await queueTexts(db(), [{ to: '+13145550101', kind: 'found-report', body: 'Someone found Rex.' }]);
    const dir = join(ctx.outboxDir, 'sms');
    expect(await sendDueTexts(db(), createFileTexter(dir))).toEqual({ sent: 1, canceled: 0 });
    expect(await sendDueTexts(db(), createFileTexter(dir))).toEqual({ sent: 0, canceled: 0 });
    const [text] = await rows();
    expect(text).toMatchObject({ status: 'sent', attempts: 1 });
    expect(text!.providerId).toMatch(/^file-/);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(readFileSync(join(dir, files[0]!), 'utf8')).toBe('To: +13145550101\n\nSomeone found Rex.\n');
  });

  it('sends nothing to a number that answered STOP', async () => {
    await db().insert(textOptOuts).values({ phone: '+13145550101' });
    await queueTexts(db(), [
      { to: '+13145550101', kind: 'found-report', body: 'a' },
      { to: '+13145550102', kind: 'found-report', body: 'b' },
    ]);
    const { texter, taken } = provider();
    expect(await sendDueTexts(db(), texter)).toEqual({ sent: 1, canceled: 1 });
    expect(taken.map((t) => t.to)).toEqual(['+13145550102']);
    expect((await rows()).map((r) => r.status)).toEqual(['canceled', 'sent']);
  });

  it('fails at once a number the provider refuses for good, and tries again later after another error', async () => {
    await queueTexts(db(), [
      { to: '+13145550101', kind: 'found-report', body: 'a' },
      { to: '+13145550102', kind: 'found-report', body: 'b' },
    ]);
    const { texter } = provider((m) => (m.to.endsWith('101') ? new NumberRefusedError('not a mobile') : new Error('HTTP 400')));
    expect(await sendDueTexts(db(), texter)).toEqual({ sent: 0, canceled: 0 });
    const [refused, retried] = await rows();
    expect(refused).toMatchObject({ status: 'failed', attempts: 1 });
    expect(retried).toMatchObject({ status: 'pending', attempts: 1 });
    expect(retried!.lastError).toContain('HTTP 400');
    // Not due again at once; due a minute later.
    const { texter: working, taken } = provider();
    await sendDueTexts(db(), working);
    expect(taken).toHaveLength(0);
    await sendDueTexts(db(), working, new Date(Date.now() + 61_000));
    expect(taken.map((t) => t.to)).toEqual(['+13145550102']);
  });

  it('sends a burst larger than a batch in one round', async () => {
    const burst = Array.from({ length: 45 }, (_, i) => ({ to: `+1314555${String(1000 + i)}`, kind: 'found-report' as const, body: `Text ${i}` }));
    expect(await queueTexts(db(), burst)).toBe(45);
    const { texter, taken } = provider();
    expect(await sendDueTexts(db(), texter)).toEqual({ sent: 45, canceled: 0 });
    expect(taken.map((t) => t.body).sort()).toEqual(burst.map((t) => t.body).sort());
    expect((await rows()).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it("sends a finder's texts first, then a phone code, then the rest by due time, even behind a burst of contact checks", async () => {
    const checks = Array.from({ length: 45 }, (_, i) => ({ to: `+1314555${String(3000 + i)}`, kind: 'contacts-check' as const, body: `Check ${i}` }));
    await queueTexts(db(), checks);
    await queueTexts(db(), [
      { to: '+13145554000', kind: 'phone-code', body: 'Code' },
      { to: '+13145554001', kind: 'alert-sent', body: 'Alert sent' },
      { to: '+13145554002', kind: 'finder-contact', body: 'Finder contact' },
      { to: '+13145554003', kind: 'found-report-backup', body: 'Found report, backup' },
      { to: '+13145554004', kind: 'found-report', body: 'Found report' },
    ]);
    // The provider receives the texts in the order they were claimed: each of the 4 lanes takes its next
    // text at once, and every send answers after the same pause.
    const { texter, taken } = provider();
    const paced: Texter = { send: async (message) => (await new Promise((r) => setTimeout(r, 2)), texter.send(message)) };
    expect(await sendDueTexts(db(), paced)).toEqual({ sent: 50, canceled: 0 });
    const order = taken.map((t) => t.body);
    expect(order.slice(0, 3).sort()).toEqual(['Finder contact', 'Found report', 'Found report, backup']);
    expect(order[3]).toBe('Code');
    // The rest of the first batch of 20 is the first sixteen checks, in any order; the alert's text waits for a later batch.
    expect(order.slice(4, 20).sort()).toEqual(checks.slice(0, 16).map((c) => c.body).sort());
    expect(order.indexOf('Alert sent')).toBeGreaterThan(19);
  });

  it('ends the round when the provider is out of reach: the next batch is not claimed, no attempt is used up', async () => {
    await queueTexts(db(), Array.from({ length: 45 }, (_, i) => ({ to: `+1314555${String(2000 + i)}`, kind: 'found-report' as const, body: `Text ${i}` })));
    const { texter } = provider(() => new TextProviderUnavailableError('connect ECONNREFUSED'));
    expect(await sendDueTexts(db(), texter)).toEqual({ sent: 0, canceled: 0 });
    const after = await rows();
    expect(after.every((r) => r.status === 'pending' && r.attempts === 0)).toBe(true);
    // The first batch waits for the provider; what no batch claimed is still due, untouched.
    expect(after.filter((r) => r.lastError !== null)).toHaveLength(20);
    expect(after.slice(20).every((r) => r.lastError === null && r.nextAttemptAt.getTime() <= Date.now())).toBe(true);
  });

  it('waits for a provider out of reach without using up an attempt', async () => {
    await queueTexts(db(), [
      { to: '+13145550101', kind: 'found-report', body: 'a' },
      { to: '+13145550102', kind: 'found-report', body: 'b' },
    ]);
    const { texter } = provider(() => new TextProviderUnavailableError('connect ECONNREFUSED'));
    await sendDueTexts(db(), texter);
    const waiting = await rows();
    expect(waiting.map((r) => [r.status, r.attempts])).toEqual([
      ['pending', 0],
      ['pending', 0],
    ]);
    const { texter: back, taken } = provider();
    await sendDueTexts(db(), back, new Date(Date.now() + 61_000));
    expect(taken).toHaveLength(2);
    const [first] = await db().select().from(textOutbox).where(eq(textOutbox.recipient, '+13145550101'));
    expect(first).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('keeps no code or link token in a text that ends unsent: refused, answered STOP, or given up; one tried again keeps it until then', async () => {
    await db().insert(textOptOuts).values({ phone: '+13145550103' });
    const code = (to: string) => ({ to, kind: 'phone-code' as const, body: '123456 is your Pet Registry code. It works for 10 minutes.' });
    await queueTexts(db(), [
      code('+13145550101'),
      code('+13145550102'),
      code('+13145550103'),
      { to: '+13145550104', kind: 'backup-contact-confirmation', body: 'Reply YES to confirm, or open https://r.example/backup-contact/confirm?token=1.2.abc' },
    ]);
    const { texter } = provider((m) => (m.to.endsWith('101') ? new NumberRefusedError('not a mobile') : new Error('HTTP 500')));
    expect(await sendDueTexts(db(), texter)).toEqual({ sent: 0, canceled: 1 });
    const hidden = '[hidden] is your Pet Registry code. It works for 10 minutes.';
    expect((await rows()).map((r) => [r.status, r.body])).toEqual([
      ['failed', hidden],
      ['pending', '123456 is your Pet Registry code. It works for 10 minutes.'],
      ['canceled', hidden],
      ['pending', 'Reply YES to confirm, or open https://r.example/backup-contact/confirm?token=1.2.abc'],
    ]);
    // Given up after the last attempt.
    for (let n = 1; n <= 8; n++) await sendDueTexts(db(), texter, new Date(Date.now() + n * 48 * 3600_000));
    expect((await rows()).map((r) => [r.status, r.body])).toEqual([
      ['failed', hidden],
      ['failed', hidden],
      ['canceled', hidden],
      ['failed', 'Reply YES to confirm, or open https://r.example/backup-contact/confirm?token=[hidden]'],
    ]);
  });
});
