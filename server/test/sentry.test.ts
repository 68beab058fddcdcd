import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createFileTexter } from '../src/adapters/sms/index.js';
import { createMailer } from '../src/adapters/mail/index.js';
import { alertMailSettings } from './alertKit.js';
import { startWorker } from '../src/worker/index.js';
import { createTestApp, type TestContext } from './helpers.js';
import { scrubText, scrubUrl } from '../src/modules/operations/scrub.js';

/** Sentry's ingest, played locally: every envelope received, decompressed, as text. */
let ingest: Server;
let dsn: string;
const envelopes: string[] = [];

beforeAll(async () => {
  ingest = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      envelopes.push((request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8'));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  // Any free port, as the other local peers of the suite: both database projects run at once.
  await new Promise<void>((resolve) => ingest.listen(0, '127.0.0.1', resolve));
  dsn = `http://publickey@127.0.0.1:${(ingest.address() as AddressInfo).port}/1`;
});
afterAll(() => new Promise<void>((resolve) => ingest.close(() => resolve())));

/** What a signing-up owner sends: none of it may reach the report. */
const person = {
  firstName: 'Zebulon',
  lastName: 'Quartermaine',
  email: 'zebulon.quartermaine7731@example.com',
  phoneNumber: '(415) 555-7731',
  password: 'Secret#7731x',
};
const chip = '985141000773177';
const bearer = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI3NzMxIn0.c2lnbmF0dXJlNzczMQ';
const clientIp = '203.0.113.77';

/** The database refuses the new account with a message that quotes its e-mail and phone, as a real failure's message may. */
async function breakSignUp(context: TestContext) {
  await context.database.db.execute(sql.raw(`
    create or replace function refuse_sign_up() returns trigger language plpgsql as $$
    begin raise exception 'cannot store % with phone %', new.email, new.phone_number; end $$`));
  await context.database.db.execute(sql.raw('create trigger refuse_sign_up before insert on users for each row execute function refuse_sign_up()'));
  return async () => {
    await context.database.db.execute(sql.raw('drop trigger refuse_sign_up on users'));
  };
}

const failingSignUp = (context: TestContext) =>
  context.app.inject({
    method: 'POST',
    url: `/api/v2/Users/signup?token=${bearer}&chip=${chip}`,
    payload: person,
    headers: { authorization: `Bearer ${bearer}`, cookie: `session=${bearer}`, 'x-forwarded-for': clientIp, 'user-agent': 'Zebulon Quartermaine' },
    remoteAddress: clientIp,
  });

describe('error reports to Sentry (SENTRY_DSN)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp({ env: { SENTRY_DSN: dsn, TRUST_PROXY: '1' } });
  });
  afterAll(() => ctx.close());

  it("reports a request's unexpected error with its route, and nothing personal the request carried", async () => {
    envelopes.length = 0;
    onTestFinished(await breakSignUp(ctx));
    const response = await failingSignUp(ctx);
    expect(response.statusCode).toBe(500);
    await vi.waitFor(() => expect(envelopes.length).toBeGreaterThan(0), { timeout: 5000 });
    const envelope = envelopes.join('\n');
    expect(envelope).toContain('"type":"event"');
    // The error and its cause (the database's words), with where it happened.
    expect(envelope).toContain('cannot store [email] with phone [phone]');
    expect(envelope).toContain('"route":"/api/v2/Users/signup"');
    expect(envelope).toContain('POST /api/v2/Users/signup');
    expect(envelope).toContain('"handled":false');
    for (const personal of [person.firstName, person.lastName, person.email, '555-7731', person.password, chip, bearer, clientIp, 'c2lnbmF0dXJl']) {
      expect(envelope).not.toContain(personal);
    }
  });

  it('reports nothing expected: refusals (4xx)', async () => {
    envelopes.length = 0;
    const refused = await ctx.app.inject({ method: 'POST', url: '/api/v2/Users/signup', payload: { ...person, email: 'not an e-mail' } });
    expect(refused.statusCode).toBe(400);
    const unknown = await ctx.app.inject({ method: 'GET', url: `/api/v2/Pet/${chip}` });
    expect(unknown.statusCode).toBeGreaterThanOrEqual(400);
    expect(unknown.statusCode).toBeLessThan(500);
    // Closing waits for any report on its way: there is none.
    await ctx.app.errorReports.close();
    expect(envelopes).toEqual([]);
  });
});

describe('a worker round that fails', () => {
  it('is reported with the job named, once Sentry is set', async () => {
    const worked = await createTestApp({ env: { SENTRY_DSN: dsn } });
    envelopes.length = 0;
    // The texts' table is gone: the texts round (every second) fails.
    await worked.database.db.execute(sql.raw('alter table text_outbox rename to text_outbox_aside'));
    const stop = startWorker(worked.app, worked.database.db, createMailer({ from: 'x@localhost', outboxDir: worked.outboxDir }), createFileTexter(`${worked.outboxDir}/sms`), alertMailSettings, { backupAfterMinutes: 15, vetsAfterMinutes: 120 }, { publicUrl: 'http://localhost:3000', secret: alertMailSettings.secret, registryName: 'Pet Registry', reconfirmMonths: 6 });
    try {
      await vi.waitFor(() => expect(envelopes.join('\n')).toContain('"job":"texts"'), { timeout: 10_000 });
      expect(envelopes.join('\n')).toContain('worker: texts');
    } finally {
      await stop();
      await worked.database.db.execute(sql.raw('alter table text_outbox_aside rename to text_outbox'));
      await worked.close();
    }
  });
});

describe('without SENTRY_DSN', () => {
  it('sends nothing, and Sentry is not even started', async () => {
    const quiet = await createTestApp();
    try {
      envelopes.length = 0;
      await breakSignUp(quiet);
      expect((await failingSignUp(quiet)).statusCode).toBe(500);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(envelopes).toEqual([]);
      const Sentry = await import('@sentry/node');
      expect(Sentry.isInitialized()).toBe(false);
      expect(Sentry.getClient()).toBeUndefined();
    } finally {
      await quiet.close();
    }
  });
});

describe('scrubbing', () => {
  it('replaces e-mails, phones, tokens, addresses and chip numbers in any text, and cuts the parameters of a failed query', () => {
    expect(scrubText('Failed query: insert into users values ($1, $2)\nparams: Zebulon,zeb@example.com')).toBe('Failed query: insert into users values ($1, $2)');
    expect(scrubText('to zeb.q+pets@mail.example.co.uk or +14155557731 or 415.555.7731 from 10.1.2.3 and 2001:db8::7731')).toBe(
      'to [email] or [phone] or [phone] from [ip] and [ip]',
    );
    expect(scrubText(`Authorization: Bearer abc.def-ghi and ${bearer} and ?token=abc123&x=1`)).toBe('Authorization: Bearer [redacted] and [token] and ?token=[redacted]&x=1');
    expect(scrubText('chips 985141000773177, 123456789 and 0a1b2c3d4e, not the word abcdefabcd')).toBe('chips [chip], [chip] and [chip], not the word abcdefabcd');
    expect(scrubText('relation "text_outbox" does not exist')).toBe('relation "text_outbox" does not exist');
  });

  it('keeps of an address its route and query keys only', () => {
    expect(scrubUrl(`/api/v2/public/lookup/${chip}?token=abc&chip=${chip}`)).toBe('/api/v2/public/lookup/[redacted]?token=[redacted]&chip=[redacted]');
    expect(scrubUrl('/api/v2/email/unsubscribe/Zm9vYmFyYmF6cXV4cXV1eHh4eHh4eA')).toBe('/api/v2/email/unsubscribe/[redacted]');
    expect(scrubUrl('/api/v2/Users/signup')).toBe('/api/v2/Users/signup');
  });
});
