import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecipientRefusedError, type Mailer } from '../src/adapters/mail/index.js';
import { createFileTexter } from '../src/adapters/sms/index.js';
import { queryRows } from '../src/db/client.js';
import { chips, mailOutbox, pets } from '../src/db/schema.js';
import { queueTexts } from '../src/modules/texts/outbox.js';
import { sendDueMail } from '../src/worker/outbox.js';
import { sendDueTexts } from '../src/worker/texts.js';
import { alertKit } from './alertKit.js';
import { call, createTestApp, registerPet, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

const TOKEN = 'metrics-token-0123456789abcdef';

let ctx: TestContext;
const db = () => ctx.database.db;
const kit = alertKit(() => ctx);

beforeAll(async () => {
  ctx = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
});
afterAll(() => ctx.close());

const scrape = (authorization?: string, remoteAddress = '127.0.0.1') =>
  ctx.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {}, remoteAddress });

async function metricsText(): Promise<string> {
  const response = await scrape(`Bearer ${TOKEN}`);
  expect(response.statusCode).toBe(200);
  return response.body;
}

/** The value of one series (the metric's name with its labels, as Prometheus' text writes them), 0 when absent. */
async function valueOf(series: string): Promise<number> {
  const line = (await metricsText()).split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('/metrics', () => {
  it('asks for the token: none or a wrong one is 401 with the same answer, the right one is Prometheus text', async () => {
    const missing = await scrape();
    const wrong = await scrape(`Bearer ${TOKEN}x`);
    const notBearer = await scrape(`Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`);
    for (const refused of [missing, wrong, notBearer]) {
      expect(refused.statusCode).toBe(401);
      expect(refused.body).toBe(missing.body);
      expect(refused.body).not.toContain('petreg_');
    }
    const answered = await scrape(`bearer ${TOKEN}`);
    expect(answered.statusCode).toBe(200);
    expect(answered.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    // Node's own metrics come with the portal's.
    expect(answered.body).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(answered.body).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('is limited like any public route: a stranger guessing the token is held back', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 61; n++) statuses.push((await scrape('Bearer guess', '10.77.0.1')).statusCode);
    expect(statuses.slice(0, 60).every((status) => status === 401)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it('counts and times answers by route pattern and status, never with the chip, token or path asked for', async () => {
    const chipId = uniqueChip('985');
    const series = 'petreg_http_requests_total{method="GET",route="/api/v2/public/lookup/:chip",status="200"}';
    const before = await valueOf(series);
    for (let n = 0; n < 3; n++) {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/v2/public/lookup/${chipId}?token=secret-${chipId}`, remoteAddress: '127.0.0.1' });
      expect(response.statusCode).toBe(200);
    }
    const unknown = await ctx.app.inject({ method: 'GET', url: `/api/v2/nothing-here/${chipId}`, remoteAddress: '127.0.0.1' });
    expect(unknown.statusCode).toBe(404);

    const text = await metricsText();
    expect(await valueOf(series)).toBe(before + 3);
    expect(text).toContain('petreg_http_request_duration_seconds_bucket{le="0.002",method="GET",route="/api/v2/public/lookup/:chip",status="200"}');
    expect(text).toMatch(/^petreg_http_requests_total\{method="GET",route="unmatched",status="404"\} [1-9]/m);
    expect(text).not.toContain(chipId);
    expect(text).not.toContain('secret-');
    expect(text).not.toContain('nothing-here');
  });

  it('counts the public answers read from memory and those a write drops', async () => {
    const owner = await signUpOwner(ctx.app);
    const pet = await registerPet(ctx.app, owner.token, uniqueChip('985'));
    const chipId = pet.chips[0]!.chipId;
    const lookup = () => ctx.app.inject({ method: 'GET', url: `/api/v2/public/lookup/${chipId}`, remoteAddress: '127.0.0.1' });
    const hits = 'petreg_public_cache_reads_total{cache="lookup",result="hit"}';
    const misses = 'petreg_public_cache_reads_total{cache="lookup",result="miss"}';
    const drops = 'petreg_public_cache_drops_total{cache="lookup"}';
    const [hitsBefore, missesBefore, dropsBefore] = [await valueOf(hits), await valueOf(misses), await valueOf(drops)];
    await lookup();
    await lookup();
    expect(await valueOf(misses)).toBe(missesBefore + 1);
    expect(await valueOf(hits)).toBe(hitsBefore + 1);
    // A write to the chip drops its remembered answer (the database notifies at commit).
    await db().update(pets).set({ isActive: true }).where(eq(pets.id, pet.id));
    await db().update(chips).set({ isActive: true }).where(eq(chips.petId, pet.id));
    await lookup();
    expect(await valueOf(drops)).toBeGreaterThan(dropsBefore);
    expect(await valueOf(misses)).toBe(missesBefore + 2);
  });

  it('reads the outboxes at scrape time: how many wait, and how old the oldest is, by kind', async () => {
    const email = 'petreg_outbox_depth{kind="email"}';
    const sms = 'petreg_outbox_depth{kind="sms"}';
    const waitingEmails = async () =>
      (await queryRows<{ n: number }>(db(), sql`select count(*)::integer as n from mail_outbox where status in ('pending', 'sending')`))[0]!.n;
    const before = await valueOf(email);
    expect(before).toBe(await waitingEmails());
    await signUpOwner(ctx.app);
    expect(await valueOf(email)).toBe(before + 1);
    const smsBefore = await valueOf(sms);
    await queueTexts(db(), [{ to: '(415) 555-0199', kind: 'phone-code', body: 'Your code is 123456' }]);
    expect(await valueOf(sms)).toBe(smsBefore + 1);
    // The oldest waiting e-mail, an hour old.
    await db().execute(sql`update mail_outbox set created_at = now() - interval '1 hour' where id = (select min(id) from mail_outbox where status = 'pending')`);
    expect(await valueOf('petreg_outbox_oldest_age_seconds{kind="email"}')).toBeGreaterThanOrEqual(3600);
    expect(await valueOf('petreg_outbox_oldest_age_seconds{kind="sms"}')).toBeLessThan(3600);
  });

  it("counts the worker's results: e-mails sent, refused for good and to be retried, texts sent", async () => {
    const refused = await signUpOwner(ctx.app, { email: `refuse-${Date.now()}@example.com` });
    const flaky = await signUpOwner(ctx.app, { email: `flaky-${Date.now()}@example.com` });
    const mailer: Mailer = {
      async send(message) {
        if (message.to === refused.input.email) throw new RecipientRefusedError('550 no such user');
        if (message.to === flaky.input.email) throw new Error('421 try again later');
      },
    };
    const result = (kind: string, outcome: string) => valueOf(`petreg_outbox_send_results_total{kind="${kind}",result="${outcome}"}`);
    const before = { sent: await result('email', 'sent'), failed: await result('email', 'failed'), retried: await result('email', 'retried') };
    let sent = 0;
    for (let round; (round = await sendDueMail(db(), mailer, undefined, undefined, ctx.app.metrics.sends('email'))) > 0; ) sent += round;
    expect(sent).toBeGreaterThan(0);
    expect(await result('email', 'sent')).toBe(before.sent + sent);
    expect(await result('email', 'failed')).toBe(before.failed + 1);
    expect(await result('email', 'retried')).toBe(before.retried + 1);
    expect((await db().select().from(mailOutbox).where(eq(mailOutbox.recipient, flaky.input.email)))[0]!.status).toBe('pending');

    const textsBefore = await result('sms', 'sent');
    const run = await sendDueTexts(db(), createFileTexter(`${ctx.outboxDir}/sms`), undefined, undefined, ctx.app.metrics.sends('sms'));
    expect(run.sent).toBeGreaterThan(0);
    expect(await result('sms', 'sent')).toBe(textsBefore + run.sent);
  });

  it('records the size of each alert fan-out', async () => {
    await kit.siteNear('63101', 5);
    await kit.siteNear('63101', 10);
    const count = () => valueOf('petreg_alert_fanout_recipients_count');
    const sum = () => valueOf('petreg_alert_fanout_recipients_sum');
    const upTo = (le: number) => valueOf(`petreg_alert_fanout_recipients_bucket{le="${le}"}`);
    const before = { count: await count(), sum: await sum(), one: await upTo(1), five: await upTo(5) };
    const owner = await kit.ownerWithLostPet();
    const alert = await kit.sendAndPay(owner.token, owner.pet.id);
    expect(alert.recipientsCount).toBe(2);
    expect(await count()).toBe(before.count + 1);
    expect(await sum()).toBe(before.sum + 2);
    expect(await upTo(1)).toBe(before.one);
    expect(await upTo(5)).toBe(before.five + 1);
  });

  it("shows the PostgreSQL pools' use on a server, the main one and the rate limits' counts', and no pool on PGlite", async () => {
    // From an address the limits count: its hit is counted on the rate limits' own connections.
    await call(ctx.app, 'GET', `utilities/microchip-lookup?id=${uniqueChip('985')}`, { ip: '10.72.0.1' });
    const text = await metricsText();
    if (process.env.TEST_DB === 'postgres') {
      for (const pool of ['main', 'rate_limits']) {
        expect(await valueOf(`petreg_db_pool_connections{pool="${pool}",state="total"}`)).toBeGreaterThan(0);
        expect(text).toMatch(new RegExp(`^petreg_db_pool_connections\\{pool="${pool}",state="idle"\\} \\d+$`, 'm'));
        expect(text).toMatch(new RegExp(`^petreg_db_pool_waiting\\{pool="${pool}"\\} \\d+$`, 'm'));
      }
    } else {
      expect(text).not.toContain('petreg_db_pool');
    }
  });
});

describe('/metrics in other apps of the same process', () => {
  it('is off without METRICS_TOKEN, and a second app with one keeps its own registry', async () => {
    const off = await createTestApp();
    const second = await createTestApp({ env: { METRICS_TOKEN: `${TOKEN}-2` } });
    try {
      expect((await off.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
      const livez = 'petreg_http_requests_total{method="GET",route="/livez",status="200"}';
      await second.app.inject({ method: 'GET', url: '/livez' });
      const secondText = (await second.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}-2` } })).body;
      expect(secondText).toContain(`${livez} 1`);
      // This file's app counted none of the second's.
      expect(await valueOf(livez)).toBe(0);
    } finally {
      await off.close();
      await second.close();
    }
  });
});
