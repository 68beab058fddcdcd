import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { ApiKeyEntry, AuthResult, CreatedPet, IssuedApiKey, StaticData, User } from '@petreg/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertEmails, backupContacts, chips, foundReports, mailOutbox, pets, textOutbox } from '../src/db/schema.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { alertKit } from './alertKit.js';
import { createTestApp, petForm, registerPet, signUpOwner, uniqueChip, type TestContext } from './helpers.js';
import { startPortal, type PortalProcess } from './portalProcess.js';

const root = resolve(import.meta.dirname, '../..');
const admin = { email: 'root@example.com', password: 'Admin#Pass1' };
/** How soon a session ended on one instance must be refused by the other. */
const ENDS_WITHIN_MS = 1000;
const MAILS = 30;
const TEXTS = 10;
const ALERT_SITES = 20;

interface Instance extends PortalProcess {
  dataDir: string;
}

/**
 * One instance as the README's "Running several instances" starts it: the same DATABASE_URL and
 * JWT_SECRET as the others, its own PORT and data folder, one load balancer's hop trusted.
 */
async function startInstance(databaseUrl: string): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'petreg-instance-'));
  const portal = await startPortal(dataDir, {
    DATABASE_URL: databaseUrl,
    TRUST_PROXY: '1',
    PUBLIC_URL: 'http://portal.example',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  });
  return { ...portal, dataDir };
}

async function stop(instance: Instance) {
  instance.kill('SIGTERM');
  await instance.exited;
  rmSync(instance.dataDir, { recursive: true, force: true });
}

let forwardedFor = 0;

/** A call through the load balancer to one instance; each call from a client address of its own, so no per-address limit is reached. */
async function request<T = unknown>(instance: Instance, method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const response = await fetch(`${instance.url}/api/v2/${path}`, {
    method,
    headers: {
      'x-forwarded-for': `198.51.100.${(forwardedFor++ % 250) + 1}`,
      ...(options.token && { authorization: `Bearer ${options.token}` }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, body: (await response.json()) as { result: T | null; errors: string[] } };
}

const signIn = async (instance: Instance, email: string, password: string) => {
  const answer = await request<AuthResult>(instance, 'POST', 'Users/login', { body: { email, password } });
  expect(answer.status, answer.body.errors.join()).toBe(200);
  return answer.body.result!.token;
};

const currentUser = (instance: Instance, token: string) => request<User>(instance, 'GET', 'Users/current-user', { token });

/** How long after the call the other instance's current-user first answered as `until` says, polled; fails past a few seconds. */
async function answeredAfter(instance: Instance, token: string, until: (answer: Awaited<ReturnType<typeof currentUser>>) => boolean): Promise<number> {
  const started = performance.now();
  for (;;) {
    const answer = await currentUser(instance, token);
    const elapsed = performance.now() - started;
    if (until(answer)) return elapsed;
    expect(answer.status).toBe(200);
    if (elapsed > 5 * ENDS_WITHIN_MS) return elapsed;
    await new Promise((done) => setTimeout(done, 10));
  }
}

const refusedAfter = (instance: Instance, token: string) => answeredAfter(instance, token, ({ status }) => status === 401);

/** Polls until `done` says so, for up to a minute. */
async function eventually(done: () => Promise<boolean>) {
  const until = performance.now() + 60_000;
  while (!(await done())) {
    if (performance.now() > until) throw new Error('not done within a minute');
    await new Promise((wait) => setTimeout(wait, 250));
  }
}

/** The files the instances wrote to `folder` (mail: .eml, sms: .txt) to `recipient`, across both; only those `containing` it when given. */
function written(instances: Instance[], folder: 'mail' | 'sms', recipient: string, containing = ''): number {
  return instances
    .flatMap((instance) => {
      const dir = join(instance.dataDir, folder);
      const names = (() => {
        try {
          return readdirSync(dir);
        } catch {
          return [];
        }
      })();
      return names.map((name) => readFileSync(join(dir, name), 'utf8'));
    })
    .filter((content) => new RegExp(`^To: <?${recipient.replace(/[.+]/g, '\\$&')}>?$`, 'mi').test(content) && content.includes(containing)).length;
}

/**
 * Two instances of the portal on one PostgreSQL server, in processes of their own, as the README runs
 * them: a session ended on one is refused by the other within a second, and the workers of both do
 * each job once. The embedded database serves one process: nothing to run twice.
 */
describe.runIf(process.env.TEST_DB === 'postgres')('two instances on one PostgreSQL server', { timeout: 240_000 }, () => {
  let ctx: TestContext;
  let a: Instance;
  let b: Instance;
  const mailRecipients = Array.from({ length: MAILS }, (_, i) => `instances-${i}@example.com`);
  const textRecipients = Array.from({ length: TEXTS }, (_, i) => `+1415555${String(i).padStart(4, '0')}`);
  const backupPhone = '+13145550177';
  let lapsedOwnerEmail: string;
  let reportId: number;
  let alertId: number;
  let alertRecipients: string[];

  beforeAll(async () => {
    // The database and what the workers will find due, made before either instance starts.
    ctx = await createTestApp();
    const db = ctx.database.db;
    await ensureAdministrator(db, admin);
    await db.insert(mailOutbox).values(mailRecipients.map((recipient) => ({ recipient, kind: 'password-reset' as const, subject: 'Reset', text: 'Reset' })));
    await db.insert(textOutbox).values(textRecipients.map((recipient) => ({ recipient, kind: 'phone-code' as const, body: 'Your code' })));

    const lapsed = await signUpOwner(ctx.app);
    lapsedOwnerEmail = lapsed.input.email;
    const lapsedPet = await registerPet(ctx.app, lapsed.token);
    await db.update(pets).set({ isActive: true }).where(eq(pets.id, lapsedPet.id));
    await db.update(chips).set({ isActive: true, oneTime: false, expirationDate: new Date(Date.now() - 3_600_000) }).where(eq(chips.petId, lapsedPet.id));

    const found = await signUpOwner(ctx.app);
    const foundPet = await registerPet(ctx.app, found.token);
    await db.insert(backupContacts).values({ userId: found.user.id, name: 'Grandma Rose', phoneNumber: backupPhone, phoneConfirmedAt: new Date() });
    const [report] = await db
      .insert(foundReports)
      .values({ petId: foundPet.id, ownerId: found.user.id, finderName: 'Sam', finderPhone: '+13145550123', message: 'Found him', location: '63101', createdAt: new Date(Date.now() - 3 * 3_600_000) })
      .returning();
    reportId = report!.id;

    // A lost pet alert's fan-out: an e-mail to each site near the pet's ZIP.
    const kit = alertKit(() => ctx);
    for (let i = 0; i < ALERT_SITES; i++) await kit.siteNear('63101', 1 + i);
    const lost = await kit.ownerWithLostPet();
    alertId = (await kit.sendAndPay(lost.token, lost.pet.id)).id;
    alertRecipients = await kit.recipientsOf(alertId);
    expect(alertRecipients).toHaveLength(ALERT_SITES);

    [a, b] = await Promise.all([startInstance(ctx.databaseUrl!), startInstance(ctx.databaseUrl!)]);
  });
  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map(stop));
    await ctx?.close();
  });

  /** An owner signed up with a password, and a token of theirs from A that B honours. */
  async function ownerSignedInOnA() {
    const owner = await signUpOwner(ctx.app);
    const token = await signIn(a, owner.input.email, owner.input.password);
    // Twice: the second answer comes from what B remembers of the session.
    expect((await currentUser(b, token)).status).toBe(200);
    expect((await currentUser(b, token)).status).toBe(200);
    return { owner, token };
  }

  it('a logout on A is refused on B within a second', async () => {
    const { token } = await ownerSignedInOnA();
    expect((await request(a, 'POST', 'Users/logout', { token })).status).toBe(200);
    expect(await refusedAfter(b, token)).toBeLessThan(ENDS_WITHIN_MS);
  });

  it("a password changed on A ends the owner's other sessions on B within a second, and keeps the one that changed it", async () => {
    const { owner, token } = await ownerSignedInOnA();
    const changing = await signIn(a, owner.input.email, owner.input.password);
    const changed = await request(a, 'POST', 'Users/ChangeUserPassword', {
      token: changing,
      body: { currentPassword: owner.input.password, newPassword: 'Changed#Pass2', confirmPassword: 'Changed#Pass2' },
    });
    expect(changed.status, changed.body.errors.join()).toBe(200);
    expect(await refusedAfter(b, token)).toBeLessThan(ENDS_WITHIN_MS);
    expect((await currentUser(b, changing)).status).toBe(200);
  });

  it('an account its owner closes on A is refused on B within a second', async () => {
    const { owner, token } = await ownerSignedInOnA();
    const closed = await request(a, 'POST', 'Users/close-account', { token, body: { password: owner.input.password } });
    expect(closed.status, closed.body.errors.join()).toBe(200);
    expect(await refusedAfter(b, token)).toBeLessThan(ENDS_WITHIN_MS);
  });

  it('an account an administrator switches off on A is refused on B within a second', async () => {
    const { owner, token } = await ownerSignedInOnA();
    const adminToken = await signIn(a, admin.email, admin.password);
    const switchedOff = await request(a, 'PUT', `admin/update-user/${owner.user.id}`, {
      token: adminToken,
      body: {
        firstName: owner.input.firstName,
        lastName: owner.input.lastName,
        email: owner.input.email,
        phoneNumber: owner.input.phoneNumber,
        address1: '1 Main St',
        address2: '',
        city: 'Saint Louis',
        stateId: null,
        zipcode: '63101',
        notifyByEmail: true,
        notifyBySms: false,
        isActive: false,
      },
    });
    expect(switchedOff.status, switchedOff.body.errors.join()).toBe(200);
    expect(await refusedAfter(b, token)).toBeLessThan(ENDS_WITHIN_MS);
    // Still refused there once the notification is long past: nothing remembered it as open.
    expect((await currentUser(a, token)).status).toBe(401);
  });

  it("a profile changed and a plan paid for on A show in the owner's user object on B within a second", async () => {
    const { owner, token } = await ownerSignedInOnA();
    // B keeps the user object it answered (current-user twice above).
    expect((await currentUser(b, token)).body.result!.data).toMatchObject({ firstName: owner.input.firstName, haveActivePets: false, haveSubscriptions: false });

    const profile = { ...owner.input, address1: '1 Main St', address2: '', city: 'Saint Louis', stateId: null, zipcode: '63101', notifyByEmail: true, notifyBySms: false };
    const renamed = await request(a, 'PUT', `Users/${owner.user.id}`, { token, body: { ...profile, firstName: 'Renamed' } });
    expect(renamed.status, renamed.body.errors.join()).toBe(200);
    expect(await answeredAfter(b, token, ({ body }) => body.result?.data.firstName === 'Renamed')).toBeLessThan(ENDS_WITHIN_MS);

    const data = (await request<StaticData>(a, 'GET', 'utilities/static-data')).body.result!;
    const pet = await request<CreatedPet>(a, 'POST', 'Pet/create-pet', { token, body: petForm(data, uniqueChip()) });
    expect(pet.status, pet.body.errors.join()).toBe(200);
    const petId = pet.body.result!.pet.id;
    const plans = (await request<{ plans: { id: number; oneTime: boolean }[] }>(a, 'GET', 'pet/plans')).body.result!.plans;
    expect((await request(a, 'PUT', 'Pet/update-plan', { token, body: { id: petId, planId: plans.find((plan) => !plan.oneTime)!.id } })).status).toBe(200);
    const checkout = await request<{ location: string }>(a, 'GET', `checkout/stripe-subscription/${petId}?petFlow=false&isTagSelected=false`, { token });
    const sessionId = checkout.body.result!.location.split('/checkout/')[1]!;
    expect((await currentUser(b, token)).body.result!.data).toMatchObject({ haveActivePets: false, haveSubscriptions: false });
    const paid = await request(a, 'POST', `checkout/local/${sessionId}/pay`, { token, body: { name: 'Jamie Rivera', cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' } });
    expect(paid.status, paid.body.errors.join()).toBe(200);
    const shownAfter = await answeredAfter(b, token, ({ body }) => body.result?.data.haveActivePets === true && body.result.data.haveSubscriptions === true);
    expect(shownAfter).toBeLessThan(ENDS_WITHIN_MS);

    // The payment also made the owner a paying member (the account's row); a write to the pet alone,
    // by a third process, reaches B through the pets' trigger.
    await ctx.database.db.update(pets).set({ isActive: false }).where(eq(pets.id, petId));
    expect(await answeredAfter(b, token, ({ body }) => body.result?.data.haveActivePets === false)).toBeLessThan(ENDS_WITHIN_MS);
  });

  it("an API key revoked on A is refused on B within a second, and its limit and usage count hold across both", async () => {
    const adminToken = await signIn(a, admin.email, admin.password);
    const issued = await request<IssuedApiKey>(a, 'POST', 'admin/api-keys', { token: adminToken, body: { name: 'Two Instance Shelter', requests: 5, per: 'minute' } });
    expect(issued.status, issued.body.errors.join()).toBe(200);
    const { key, entry } = issued.body.result!;
    const lookup = (instance: Instance) => fetch(`${instance.url}/api/v2/public/lookup/985112345678901`, { headers: { 'x-api-key': key } }).then((r) => r.status);
    // Five calls a minute in all, whichever instance answers them.
    expect([await lookup(a), await lookup(b), await lookup(a), await lookup(b), await lookup(b)]).toEqual([200, 200, 200, 200, 200]);
    expect([await lookup(a), await lookup(b)]).toEqual([429, 429]);
    await eventually(async () => {
      const listed = await request<ApiKeyEntry[]>(b, 'GET', 'admin/api-keys', { token: adminToken });
      return listed.body.result!.find((k) => k.id === entry.id)!.usageCount === 5;
    });

    // A second key, remembered by B, then revoked through A.
    const second = (await request<IssuedApiKey>(a, 'POST', 'admin/api-keys', { token: adminToken, body: { name: 'Revoked Clinic', requests: 1000, per: 'minute' } })).body.result!;
    const call = (instance: Instance) => fetch(`${instance.url}/api/v2/public/lookup/985112345678901`, { headers: { 'x-api-key': second.key } }).then((r) => r.status);
    expect([await call(b), await call(b)]).toEqual([200, 200]);
    expect((await request(a, 'POST', `admin/api-keys/${second.entry.id}/revoke`, { token: adminToken })).status).toBe(200);
    const started = performance.now();
    let status = await call(b);
    while (status === 200 && performance.now() - started < 5 * ENDS_WITHIN_MS) {
      await new Promise((done) => setTimeout(done, 10));
      status = await call(b);
    }
    expect(status).toBe(401);
    expect(performance.now() - started).toBeLessThan(ENDS_WITHIN_MS);
  });

  it("an administrator's password reset by `npm run admin -- reset-password` is refused on both instances within a second", async () => {
    const adminToken = await signIn(a, admin.email, admin.password);
    for (const instance of [a, b]) expect((await currentUser(instance, adminToken)).status).toBe(200);
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: ctx.databaseUrl!, ADMIN_PASSWORD: 'Reset#Pass3', LOG_LEVEL: 'warn' };
    await promisify(execFile)('node', ['--import', 'tsx', 'server/src/cli.ts', 'admin', 'reset-password', admin.email], { cwd: root, env });
    const [onA, onB] = await Promise.all([refusedAfter(a, adminToken), refusedAfter(b, adminToken)]);
    expect(onA).toBeLessThan(ENDS_WITHIN_MS);
    expect(onB).toBeLessThan(ENDS_WITHIN_MS);
  });

  it("runs each job of the workers once across both instances: e-mails, an alert's fan-out, texts, the sweep and the escalation", async () => {
    const db = ctx.database.db;
    const instances = [a, b];
    const unsent = async (rows: Promise<{ status: string }[]>) => (await rows).some((row) => row.status !== 'sent');
    await eventually(async () => !(await unsent(db.select({ status: mailOutbox.status }).from(mailOutbox).where(inArray(mailOutbox.recipient, [...mailRecipients, lapsedOwnerEmail])))));
    await eventually(async () => (await db.select({ status: alertEmails.status }).from(alertEmails).where(eq(alertEmails.alertId, alertId))).every((row) => row.status === 'delivered'));
    await eventually(async () => !(await unsent(db.select({ status: textOutbox.status }).from(textOutbox).where(inArray(textOutbox.recipient, [...textRecipients, backupPhone])))));

    for (const recipient of mailRecipients) expect(written(instances, 'mail', recipient), recipient).toBe(1);
    for (const recipient of alertRecipients) expect(written(instances, 'mail', recipient), recipient).toBe(1);
    for (const recipient of textRecipients) expect(written(instances, 'sms', recipient), recipient).toBe(1);
    // Both swept at start: the lapsed cover's notice was queued and sent once.
    const notices = await db.select().from(mailOutbox).where(and(eq(mailOutbox.recipient, lapsedOwnerEmail), eq(mailOutbox.kind, 'cover-lapsed')));
    expect(notices).toHaveLength(1);
    expect(written(instances, 'mail', lapsedOwnerEmail, 'cover has lapsed')).toBe(1);
    // Both escalated the unopened report at start: the backup contact was texted once.
    expect(await db.select().from(textOutbox).where(eq(textOutbox.recipient, backupPhone))).toHaveLength(1);
    expect(written(instances, 'sms', backupPhone)).toBe(1);
    const [report] = await db.select().from(foundReports).where(eq(foundReports.id, reportId));
    expect(report!.backupContactsToldAt).not.toBeNull();
  });
});
