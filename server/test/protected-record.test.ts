import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  formatPhone,
  messages,
  type AdminUser,
  type AuthResult,
  type FinderPageRenderer,
  type FoundReportSent,
  type FoundReportTarget,
  type IssuedApiKey,
  type MicrochipLookup,
  type Pet,
  type PublicProfile,
  type User,
} from '@petreg/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer, MailMessage } from '../src/adapters/mail/index.js';
import { auditLog, chips, mailOutbox, pets, shortLinks, sitePets, sites, states, users } from '../src/db/schema.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { sendDueAlertEmails } from '../src/worker/alertEmails.js';
import { alertKit, alertMailSettings } from './alertKit.js';
import { call, createTestApp, registerPet, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

// The protected-record flag (issue 20): while an administrator protects an owner's record, nothing
// public or sent to professionals names or reaches the owner, except the found-report relay.

let ctx: TestContext;
let webRoot: string;
let admin: AuthResult;
const db = () => ctx.database.db;
const { siteNear, profileOf, sendAndPay } = alertKit(() => ctx);

/** The web app's server entry from source, as ssr.test.ts renders the finder's pages. */
const serverEntry = '../../web/src/ssr.tsx';

beforeAll(async () => {
  webRoot = mkdtempSync(join(tmpdir(), 'petreg-protected-'));
  for (const frame of ['index.html', 'finder.html']) copyFileSync(join(import.meta.dirname, '../../web', frame), join(webRoot, frame));
  const { renderFinderPage } = (await import(serverEntry)) as { renderFinderPage: FinderPageRenderer };
  ctx = await createTestApp({ webRoot, finderPages: renderFinderPage });
  await ensureAdministrator(db(), { email: 'root@example.com', password: 'Admin#Pass1' });
  admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
  // Importing the web app's components from source takes long on a busy machine.
}, 180_000);
afterAll(async () => {
  await ctx?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

/** Every value the owner could be recognised or reached by, in each way it is written. */
const person = { firstName: 'Zebulon', lastName: 'Quartermaine', phoneNumber: '(415) 555-7731', city: 'Kalamazoo', address1: '77 Wisteria Lane' };
const backupPhone = '(415) 555-0193';
const vetPhone = '+15125550177';
let counter = 0;

/**
 * An owner of that description whose chipped, registered pet is lost near 63101 and shares contact
 * info, with a backup contact and a vet; one clinic there gets the alert (not yet sent by the worker).
 */
async function lostPetOfDistinctiveOwner() {
  const email = `zebulon.quartermaine.${Date.now()}.${counter++}@example.com`;
  const owner = await signUpOwner(ctx.app, { firstName: person.firstName, lastName: person.lastName, email, phoneNumber: person.phoneNumber });
  const [michigan] = await db().select({ id: states.id }).from(states).where(eq(states.abbreviation, 'MI'));
  await db().update(users).set({ city: person.city, address1: person.address1, zipcode: '49007', stateId: michigan!.id }).where(eq(users.id, owner.user.id));
  const chip = uniqueChip('985');
  const registered = await registerPet(ctx.app, owner.token, chip);
  const saved = await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token: owner.token, body: await profileOf(registered, { shareContactInfo: true }) });
  expect(saved.status).toBe(200);
  const pet = saved.body.result!;
  await call(ctx.app, 'POST', 'Users/backup-contact', { token: owner.token, body: { name: 'Sam', phoneNumber: backupPhone } });
  const [vet] = await db().insert(sites).values({ name: 'Kalamazoo Vet', googlePlaceId: `place-${pet.id}`, phoneNumber: vetPhone }).returning({ id: sites.id });
  await db().insert(sitePets).values({ siteId: vet!.id, petId: pet.id });
  const clinic = await siteNear('63101', 2);
  await sendAndPay(owner.token, pet.id, { zipCode: '63101' });
  // Registered, as the lookup counts it.
  await db().update(pets).set({ isActive: true }).where(eq(pets.id, pet.id));
  await db().update(chips).set({ isActive: true, oneTime: true }).where(eq(chips.petId, pet.id));
  const [row] = await db().select({ publicId: pets.publicId, code: shortLinks.code }).from(pets).innerJoin(shortLinks, eq(shortLinks.petId, pets.id)).where(eq(pets.id, pet.id));
  const phones = [person.phoneNumber, backupPhone, vetPhone].flatMap((phone) => [formatPhone(phone), phone.replace(/\D/g, '').slice(-7)]);
  const owned = [person.firstName, person.lastName, email, person.city, 'Wisteria', ...phones];
  return { owner, email, pet, chip, publicId: row!.publicId, code: row!.code, clinic, owned };
}

/** Fails when any of the owner's details appears anywhere in the text. */
function expectNothingOf(owned: string[], body: unknown) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  for (const detail of owned) expect(text, detail).not.toContain(detail);
}

const protect = (userId: number, body: unknown, token = admin.token) => call<AdminUser>(ctx.app, 'PUT', `admin/protected-record/${userId}`, { token, body });
const profile = (publicId: string) => call<PublicProfile>(ctx.app, 'GET', `pet/pet-profiles/${publicId}`);
const page = async (url: string) => (await ctx.app.inject({ method: 'GET', url })).body;

describe('an administrator protects a record', () => {
  it('keeps who set it, when and why on the admin record, tells the owner, and audits setting and clearing', async () => {
    const { owner } = await lostPetOfDistinctiveOwner();
    const before = Date.now();
    const set = await protect(owner.user.id, { protect: true, reason: '  Domestic-abuse case, ticket 4411  ' });
    expect(set.status).toBe(200);
    expect(set.body.result!.data.protection).toEqual({ since: expect.any(String), by: admin.user.data.displayName, reason: 'Domestic-abuse case, ticket 4411' });
    expect(Date.parse(set.body.result!.data.protection!.since)).toBeGreaterThanOrEqual(before - 1000);
    expect((await call<AdminUser>(ctx.app, 'GET', `admin/pet-user/${owner.user.id}`, { token: admin.token })).body.result!.data.protection).toEqual(
      set.body.result!.data.protection,
    );
    const seen = await call<User>(ctx.app, 'GET', 'Users/current-user', { token: owner.token });
    expect(seen.body.result!.data.recordProtected).toBe(true);
    // The owner is told the record is protected, never why.
    expect(JSON.stringify(seen.body)).not.toContain('ticket 4411');

    expect((await protect(owner.user.id, { protect: true, reason: 'Again' })).body).toEqual({ succeeded: false, result: null, errors: [messages.recordAlreadyProtected] });
    const cleared = await protect(owner.user.id, { protect: false, reason: 'Case closed by the court' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.result!.data.protection).toBeNull();
    expect((await call<User>(ctx.app, 'GET', 'Users/current-user', { token: owner.token })).body.result!.data.recordProtected).toBe(false);
    expect((await protect(owner.user.id, { protect: false, reason: 'Again' })).body.errors).toEqual([messages.recordNotProtected]);

    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'user'), eq(auditLog.entityId, String(owner.user.id))))
      .orderBy(auditLog.id);
    expect(audits.map((a) => [a.actorUserId, a.action])).toEqual([
      [admin.user.id, 'protect'],
      [admin.user.id, 'unprotect'],
    ]);
    expect(audits[0]!.before).toMatchObject({ recordProtectedAt: null, recordProtectedReason: null });
    expect(audits[0]!.after).toMatchObject({ recordProtectedBy: admin.user.id, recordProtectedReason: 'Domestic-abuse case, ticket 4411' });
    expect(audits[1]!.before).toMatchObject({ recordProtectedBy: admin.user.id, recordProtectedReason: 'Domestic-abuse case, ticket 4411' });
    expect(audits[1]!.after).toMatchObject({ recordProtectedAt: null, reason: 'Case closed by the court' });
  });

  it('asks for a reason, and answers 404 for an unknown account', async () => {
    const { owner } = await lostPetOfDistinctiveOwner();
    expect((await protect(owner.user.id, { protect: true })).body.errors).toEqual([messages.protectionReasonRequired]);
    expect((await protect(owner.user.id, { protect: true, reason: '   ab  ' })).body.errors).toEqual([messages.protectionReasonRequired]);
    expect((await protect(owner.user.id, { protect: true, reason: 'x'.repeat(501) })).body.errors).toEqual([messages.protectionReasonTooLong]);
    expect((await protect(owner.user.id, { protect: 'yes', reason: 'Dispute' })).status).toBe(400);
    expect((await protect(99_999_999, { protect: true, reason: 'Dispute over the dog' })).status).toBe(404);
    expect((await call<AdminUser>(ctx.app, 'GET', `admin/pet-user/${owner.user.id}`, { token: admin.token })).body.result!.data.protection).toBeNull();
  });

  it('cannot be set or cleared by the owner, another owner or a stranger', async () => {
    const { owner } = await lostPetOfDistinctiveOwner();
    const other = await signUpOwner(ctx.app);
    const body = { protect: true, reason: 'I want to hide' };
    expect((await protect(owner.user.id, body, owner.token)).status).toBe(403);
    expect((await protect(owner.user.id, body, other.token)).status).toBe(403);
    expect((await call(ctx.app, 'PUT', `admin/protected-record/${owner.user.id}`, { body })).status).toBe(401);

    await protect(owner.user.id, { protect: true, reason: 'Dispute over the dog' });
    expect((await protect(owner.user.id, { protect: false, reason: 'Let me be seen' }, owner.token)).status).toBe(403);
    // The profile's own form takes no such field: it is dropped, not saved.
    const current = (await call<User>(ctx.app, 'GET', 'Users/current-user', { token: owner.token })).body.result!;
    const { firstName, lastName, email, phoneNumber } = current.data;
    const saved = await call<User>(ctx.app, 'PUT', `Users/${owner.user.id}`, {
      token: owner.token,
      body: { firstName, lastName, email, phoneNumber, recordProtected: false, recordProtectedAt: null },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.result!.data.recordProtected).toBe(true);
    const [row] = await db().select({ at: users.recordProtectedAt }).from(users).where(eq(users.id, owner.user.id));
    expect(row!.at).not.toBeNull();
  });
});

describe('while a record is protected', () => {
  it('the public profile, the short link and their server-rendered pages show nothing of the owner, at once', async () => {
    const { owner, publicId, code, owned } = await lostPetOfDistinctiveOwner();
    // Shown as the owner chose, and remembered by the public caches.
    const open = await profile(publicId);
    expect(open.body.result!.pet).toMatchObject({ firstName: person.firstName, lastName: person.lastName, state: { abbreviation: 'MI' }, phone: '+14155557731' });
    expect(open.body.result!.sites).toHaveLength(1);
    expect(open.body.result!.pet.backupContacts).toHaveLength(1);
    expect(await page(`/pet-profiles/${publicId}`)).toContain(person.lastName);
    expect(await page(`/short/${code}`)).toContain(person.lastName);

    await protect(owner.user.id, { protect: true, reason: 'Domestic-abuse case' });
    const hidden = await profile(publicId);
    expect(hidden.status).toBe(200);
    expect(hidden.body.result!.pet).toMatchObject({
      petName: 'Biscuit',
      lastSeenPlace: 'Saint Louis, MO 63101',
      shareContactInfo: false,
      firstName: null,
      lastName: null,
      state: null,
      country: null,
      userPhoto: null,
      email: null,
      phone: null,
      backupContacts: [],
    });
    expect(hidden.body.result!.sites).toEqual([]);
    expectNothingOf(owned, hidden.body);
    const shortLink = await call<string>(ctx.app, 'GET', `pet/short-url-details/${code}`);
    expect(shortLink.body.result).toBe(publicId);
    for (const url of [`/pet-profiles/${publicId}`, `/short/${code}`]) {
      const html = await page(url);
      expect(html).toContain('The owner&#x27;s details are private.');
      expect(html).toMatch(new RegExp(`<a[^>]*href="/found\\?pet=${publicId}"[^>]*>.*?Reach the owner</a>`));
      expect(html).not.toContain('Call the owner');
      expectNothingOf(owned, html);
    }

    // Cleared, the owner's choices show again at once.
    await protect(owner.user.id, { protect: false, reason: 'Case closed' });
    expect((await profile(publicId)).body.result!.pet).toMatchObject({ lastName: person.lastName, phone: '+14155557731', shareContactInfo: true });
    expect(await page(`/short/${code}`)).toContain(person.lastName);

    // Another instance's write (here, SQL outside this app's service) drops the pages too: the
    // database announces the change at commit to every instance listening.
    await db().update(users).set({ recordProtectedAt: new Date(), recordProtectedReason: 'Set on another instance' }).where(eq(users.id, owner.user.id));
    expect((await profile(publicId)).body.result!.pet).toMatchObject({ firstName: null, phone: null });
    expectNothingOf(owned, await page(`/short/${code}`));
  });

  it('the microchip lookups, public and open (with or without a key), name nobody', async () => {
    const { owner, chip, owned } = await lostPetOfDistinctiveOwner();
    await protect(owner.user.id, { protect: true, reason: 'Dispute over the dog' });
    const lookup = await call<MicrochipLookup>(ctx.app, 'GET', `utilities/microchip-lookup?id=${chip}`);
    expect(lookup.body.result).toMatchObject({ isRegistered: true, result: { id: chip } });
    expectNothingOf(owned, lookup.body);
    const { key } = (await call<IssuedApiKey>(ctx.app, 'POST', 'admin/api-keys', { token: admin.token, body: { name: 'Shelter', requests: 50, per: 'minute' } })).body.result!;
    for (const headers of [{}, { 'x-api-key': key }]) {
      const open = await ctx.app.inject({ method: 'GET', url: `/api/v2/public/lookup/${chip}`, headers });
      expect(open.statusCode).toBe(200);
      expect(open.json().result).toMatchObject({ registered: true, reportUrl: expect.stringContaining(`/found?chip=${chip}`) });
      expectNothingOf(owned, open.body);
    }
  });

  it('a finder still reaches the owner through the relay, and learns nothing of them', async () => {
    const { owner, email, pet, publicId, chip, owned } = await lostPetOfDistinctiveOwner();
    await protect(owner.user.id, { protect: true, reason: 'Domestic-abuse case' });
    for (const query of [`pet=${publicId}`, `chip=${chip}`]) {
      const target = await call<FoundReportTarget>(ctx.app, 'GET', `public/found-report?${query}`);
      expect(target.status).toBe(200);
      expectNothingOf(owned, target.body);
    }
    const sent = await call<FoundReportSent>(ctx.app, 'POST', 'public/found-report', {
      body: { publicId, name: 'Robin Hale', phone: '(314) 555-0142', message: 'Found her by the park.', where: '63101' },
    });
    expect(sent.status).toBe(200);
    expectNothingOf(owned, sent.body);
    const mails = await db().select().from(mailOutbox).where(and(eq(mailOutbox.recipient, email), eq(mailOutbox.kind, 'found-report')));
    expect(mails.map((m) => m.subject)).toEqual([`Someone found ${pet.name}`]);
  });

  it('the lost pet alert e-mail carries no owner phone, e-mail, Reply-To or name: only the Reach the owner link', async () => {
    const sent: MailMessage[] = [];
    const collector: Mailer = { send: async (message) => void sent.push(message) };
    const shown = await lostPetOfDistinctiveOwner();
    const hidden = await lostPetOfDistinctiveOwner();
    await protect(hidden.owner.user.id, { protect: true, reason: 'Domestic-abuse case' });
    await sendDueAlertEmails(db(), collector, alertMailSettings, new Date());

    // The same pet and choices unprotected: the phone and the Reply-To go to the professional.
    const control = sent.find((m) => m.to === shown.clinic.email)!;
    expect(control.replyTo).toBe(shown.email);
    expect(control.text).toContain(formatPhone(person.phoneNumber));

    const mail = sent.find((m) => m.to === hidden.clinic.email)!;
    expect(mail).toBeDefined();
    expect(mail.replyTo).toBeUndefined();
    expect(mail.text).toContain(`Reach the owner: ${alertMailSettings.publicUrl}/found?pet=${hidden.publicId}`);
    expect(mail.html).toContain(`href="${alertMailSettings.publicUrl}/found?pet=${hidden.publicId}"`);
    expect(mail.text).not.toContain("Owner's phone");
    expect(mail.text).not.toContain('reply to this e-mail');
    expectNothingOf(hidden.owned, { ...mail, to: undefined });
  });
});
