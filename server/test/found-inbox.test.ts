import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { messages, type AuthResult, type FoundReportDetail, type FoundReportList, type PetAlert, type PublicProfile } from '@petreg/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertEmails, backupContacts, foundReports, mailOutbox, petAlerts, pets, sitePets, sites, textOutbox, users } from '../src/db/schema.js';
import { escalateFoundReports } from '../src/modules/foundReports/escalation.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { alertKit } from './alertKit.js';
import { call, createTestApp, registerPet, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: AuthResult;
const db = () => ctx.database.db;
const { siteNear, ownerWithLostPet, sendAndPay, recipientsOf } = alertKit(() => ctx);

beforeAll(async () => {
  ctx = await createTestApp();
  await ensureAdministrator(db(), { email: 'inbox-admin@example.com', password: 'Admin#Pass1' });
  admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'inbox-admin@example.com', password: 'Admin#Pass1' } })).body.result!;
});
afterAll(() => ctx.close());

let finderCounter = 0;
/** A finder's report as `POST public/found-report` stores it (made to the pet's owner), written straight to the table. */
async function insertReport(petId: number, values: Partial<typeof foundReports.$inferInsert> = {}) {
  const n = ++finderCounter;
  const [owner] = await db().select({ id: pets.userId }).from(pets).where(eq(pets.id, petId));
  const [report] = await db()
    .insert(foundReports)
    .values({
      petId,
      ownerId: owner!.id,
      finderName: 'Sam Finder',
      finderPhone: `+1314555${String(1000 + n).slice(-4)}`,
      finderEmail: `finder${n}@example.net`,
      message: 'Found near the park.\nShe is fine, eating now.',
      location: 'Forest Park, 63110',
      question: 'What colour is the collar?',
      answer: 'Red, with a bell',
      ...values,
    })
    .returning();
  return report!;
}

/** A new owner with a chipped pet. */
async function ownerWithPet() {
  const owner = await signUpOwner(ctx.app);
  const chip = uniqueChip();
  const pet = await registerPet(ctx.app, owner.token, chip);
  return { ...owner, pet, chip };
}

/** An owner whose mobile number was proven with a texted code, as sharing it needs. */
async function ownerWithVerifiedPhone() {
  const owner = await ownerWithPet();
  await db().update(users).set({ phoneVerifiedAt: new Date() }).where(eq(users.id, owner.user.id));
  return owner;
}

const list = (token?: string) => call<FoundReportList>(ctx.app, 'GET', 'found-reports', { token });
const open = (id: number, token?: string) => call<FoundReportDetail>(ctx.app, 'GET', `found-reports/${id}`, { token });
const share = (id: number, token?: string, note?: string) =>
  call<FoundReportDetail>(ctx.app, 'POST', `found-reports/${id}/share-phone`, { token, body: note === undefined ? {} : { note } });
const reunited = (id: number, token?: string) => call<FoundReportDetail>(ctx.app, 'POST', `found-reports/${id}/reunited`, { token });
const textsTo = (recipient: string) => db().select().from(textOutbox).where(eq(textOutbox.recipient, recipient));
const mailsTo = (recipient: string) => db().select().from(mailOutbox).where(eq(mailOutbox.recipient, recipient));

describe('who may read a found report', () => {
  it('lets the owner read it; another owner, an administrator and a guest get nothing, and it stays unopened', async () => {
    const owner = await ownerWithPet();
    const report = await insertReport(owner.pet.id);
    const stranger = await signUpOwner(ctx.app);

    for (const token of [stranger.token, admin.token]) {
      for (const answer of [await open(report.id, token), await share(report.id, token), await reunited(report.id, token)]) {
        expect(answer.status).toBe(404);
        expect(answer.body.errors).toEqual([messages.notFound]);
      }
      expect((await list(token)).body.result).toEqual({ items: [], unread: 0 });
      expect((await call(ctx.app, 'GET', 'found-reports/unread-count', { token })).body.result).toEqual({ unread: 0 });
    }
    // A report that does not exist answers the same as another owner's.
    expect((await open(2_000_000_000, owner.token)).status).toBe(404);
    for (const path of ['found-reports', 'found-reports/unread-count', `found-reports/${report.id}`]) {
      expect((await call(ctx.app, 'GET', path)).status).toBe(401);
    }
    expect((await share(report.id)).status).toBe(401);
    expect((await reunited(report.id)).status).toBe(401);
    expect((await open(0, owner.token)).status).toBe(400);

    const [row] = await db().select().from(foundReports).where(eq(foundReports.id, report.id));
    expect(row).toMatchObject({ openedAt: null, phoneSharedAt: null, reunitedAt: null });
    expect((await open(report.id, owner.token)).status).toBe(200);
  });
});

describe('the inbox', () => {
  it('lists the reports newest first with the pet, counts the unopened, and opening one marks it once', async () => {
    const owner = await ownerWithPet();
    const second = await registerPet(ctx.app, owner.token, uniqueChip());
    await db().update(pets).set({ image: `${'a'.repeat(32)}.jpg` }).where(eq(pets.id, owner.pet.id));
    const older = await insertReport(owner.pet.id, { createdAt: new Date(Date.now() - 3600_000) });
    const newer = await insertReport(second.id, { finderName: 'Alex <b>Kind</b>', photo: `${'b'.repeat(32)}.jpg` });

    const before = await list(owner.token);
    expect(before.status).toBe(200);
    expect(before.body.result!.unread).toBe(2);
    expect(before.body.result!.items).toEqual([
      {
        id: newer.id,
        petId: second.id,
        petName: 'Biscuit',
        petImageUrl: null,
        finderName: 'Alex <b>Kind</b>',
        location: 'Forest Park, 63110',
        createdAt: newer.createdAt.toISOString(),
        opened: false,
        reunited: false,
        petTransferred: false,
      },
      expect.objectContaining({ id: older.id, petImageUrl: `/api/v2/pet/pet-images/${'a'.repeat(32)}.jpg`, opened: false }),
    ]);

    const opened = await open(newer.id, owner.token);
    expect(opened.status).toBe(200);
    expect(opened.body.result).toMatchObject({
      id: newer.id,
      finderName: 'Alex <b>Kind</b>',
      finderPhone: newer.finderPhone,
      finderEmail: newer.finderEmail,
      message: 'Found near the park.\nShe is fine, eating now.',
      photoUrl: `/api/v2/found-reports/${newer.id}/photo`,
      question: 'What colour is the collar?',
      answer: 'Red, with a bell',
      opened: true,
      openedAt: expect.any(String),
      phoneSharedAt: null,
      reunitedAt: null,
    });
    const again = await open(newer.id, owner.token);
    expect(again.body.result!.openedAt).toBe(opened.body.result!.openedAt);

    expect((await call(ctx.app, 'GET', 'found-reports/unread-count', { token: owner.token })).body.result).toEqual({ unread: 1 });
    const after = (await list(owner.token)).body.result!;
    expect(after.unread).toBe(1);
    expect(after.items.map((r) => [r.id, r.opened])).toEqual([
      [newer.id, true],
      [older.id, false],
    ]);

    // A removed pet's reports leave the inbox.
    await db().update(pets).set({ deletedAt: new Date() }).where(eq(pets.id, owner.pet.id));
    expect((await list(owner.token)).body.result).toMatchObject({ unread: 0, items: [{ id: newer.id }] });
    expect((await open(older.id, owner.token)).status).toBe(404);
  });
});

describe('GET found-reports/{id}/photo', () => {
  it("shows the finder's photo to the owner only, never to be kept by a shared cache", async () => {
    const owner = await ownerWithPet();
    const name = `${'c'.repeat(31)}${finderCounter % 10}.jpg`;
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    mkdirSync(join(ctx.outboxDir, 'uploads', 'found-report-images'), { recursive: true });
    writeFileSync(join(ctx.outboxDir, 'uploads', 'found-report-images', name), jpeg);
    const report = await insertReport(owner.pet.id, { photo: name });
    const without = await insertReport(owner.pet.id);
    const stranger = await signUpOwner(ctx.app);
    const photo = (token?: string, id = report.id) =>
      ctx.app.inject({ method: 'GET', url: `/api/v2/found-reports/${id}/photo`, headers: token ? { authorization: `Bearer ${token}` } : {} });

    const mine = await photo(owner.token);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('image/jpeg');
    expect(mine.headers['cache-control']).toBe('private, max-age=86400');
    expect(mine.rawPayload.equals(jpeg)).toBe(true);
    expect((await photo(stranger.token)).statusCode).toBe(404);
    expect((await photo(admin.token)).statusCode).toBe(404);
    expect((await photo()).statusCode).toBe(401);
    expect((await photo(owner.token, without.id)).statusCode).toBe(404);
    // Not served by the public route of pets' photos.
    expect((await ctx.app.inject({ method: 'GET', url: `/api/v2/pet/pet-images/${name}` })).statusCode).toBe(404);
  });
});

describe('POST found-reports/{id}/share-phone', () => {
  it('texts a finder who gave a phone the owner\'s number, first name and note, and nothing else of the owner; once', async () => {
    const owner = await ownerWithVerifiedPhone();
    const report = await insertReport(owner.pet.id);

    const shared = await share(report.id, owner.token, '  I am on my way, about 20 minutes.  ');
    expect(shared.status).toBe(200);
    expect(shared.body.result).toMatchObject({ id: report.id, phoneSharedAt: expect.any(String), opened: true });
    const texts = await textsTo(report.finderPhone!);
    expect(texts.map((t) => ({ kind: t.kind, body: t.body, userId: t.userId }))).toEqual([
      {
        kind: 'finder-contact',
        body: 'Jamie, Biscuit\'s owner, read your report and asks you to call or text (415) 555 - 2671. Jamie adds: "I am on my way, about 20 minutes." Thank you for helping Biscuit home.',
        userId: owner.user.id,
      },
    ]);
    expect(texts[0]!.body).not.toMatch(new RegExp(`Rivera|${owner.input.email}`));
    expect(await mailsTo(report.finderEmail!)).toEqual([]);

    const twice = await share(report.id, owner.token, 'Again');
    expect(twice.status).toBe(409);
    expect(twice.body.errors).toEqual([messages.phoneAlreadyShared]);
    expect(await textsTo(report.finderPhone!)).toHaveLength(1);
  });

  it('e-mails a finder who gave only an e-mail, and leaves the note line out when there is none', async () => {
    const owner = await ownerWithVerifiedPhone();
    const report = await insertReport(owner.pet.id, { finderPhone: null, finderName: 'Sam\r\nBcc: x@example.org' });
    expect((await share(report.id, owner.token)).status).toBe(200);
    const mails = await mailsTo(report.finderEmail!);
    expect(mails.map((m) => ({ kind: m.kind, subject: m.subject, text: m.text, html: m.html }))).toEqual([
      {
        kind: 'finder-contact',
        subject: "Biscuit's owner sent you a phone number",
        text: "Hello Sam Bcc: x@example.org,\n\nJamie, Biscuit's owner, read your report and asks you to call or text (415) 555 - 2671.\n\nThank you for helping Biscuit home.\n",
        html: null,
      },
    ]);
    expect(await db().select().from(textOutbox).where(eq(textOutbox.userId, owner.user.id))).toEqual([]);
  });

  it('asks an owner without a phone number to add one, and refuses a note too long or of two lines', async () => {
    const owner = await ownerWithVerifiedPhone();
    const report = await insertReport(owner.pet.id);
    const tooLong = await share(report.id, owner.token, 'x'.repeat(201));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([messages.finderNoteTooLong]);
    const twoLines = await share(report.id, owner.token, 'Call me\nReward: send $50 first');
    expect(twoLines.status).toBe(400);
    expect(twoLines.body.errors).toEqual([messages.controlCharacter]);

    await db().update(users).set({ phoneNumber: null }).where(eq(users.id, owner.user.id));
    const noPhone = await share(report.id, owner.token, 'Hi');
    expect(noPhone.status).toBe(400);
    expect(noPhone.body.errors).toEqual([messages.phoneNeededToShare]);
    expect(await textsTo(report.finderPhone!)).toEqual([]);
    expect((await db().select().from(foundReports).where(eq(foundReports.id, report.id)))[0]!.phoneSharedAt).toBeNull();
  });

  it('answers 409 when the finder left nothing the portal can reach', async () => {
    const owner = await ownerWithVerifiedPhone();
    const report = await insertReport(owner.pet.id, { finderPhone: 'none', finderEmail: null });
    const answer = await share(report.id, owner.token);
    expect(answer.status).toBe(409);
    expect(answer.body.errors).toEqual([messages.finderUnreachable]);
  });

  it('refuses an owner whose number is not verified, so no one relays words to a number through a pet of their own', async () => {
    const owner = await ownerWithPet();
    const report = await insertReport(owner.pet.id);
    const answer = await share(report.id, owner.token, 'Hi');
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([messages.phoneNeededToShare]);
    expect(await textsTo(report.finderPhone!)).toEqual([]);
    expect((await db().select().from(foundReports).where(eq(foundReports.id, report.id)))[0]!.phoneSharedAt).toBeNull();
  });

  it('refuses a note with a link or a web address', async () => {
    const owner = await ownerWithVerifiedPhone();
    const report = await insertReport(owner.pet.id);
    for (const note of ['Pay at https://evil.example now', 'See www.evil.example', 'Go to evil.example/pay', 'Visit evil.com today', 'HTTP://EVIL.EXAMPLE']) {
      const answer = await share(report.id, owner.token, note);
      expect(answer.status, note).toBe(400);
      expect(answer.body.errors, note).toEqual([messages.finderNoteLink]);
    }
    expect(await textsTo(report.finderPhone!)).toEqual([]);
    expect((await share(report.id, owner.token, 'I can come by at 6.30 pm. St. Louis side of the park.')).status).toBe(200);
  });

  it('sends one finder number or e-mail address at most 3 contacts a day across the portal', async () => {
    const finderPhone = '+13145559876';
    const finderEmail = 'Victim@Example.net';
    for (let n = 0; n < 3; n++) {
      const owner = await ownerWithVerifiedPhone();
      expect((await share((await insertReport(owner.pet.id, { finderPhone })).id, owner.token)).status).toBe(200);
      expect((await share((await insertReport(owner.pet.id, { finderPhone: null, finderEmail: n ? finderEmail.toLowerCase() : finderEmail })).id, owner.token)).status).toBe(200);
    }
    const owner = await ownerWithVerifiedPhone();
    for (const values of [{ finderPhone: '(314) 555-9876' }, { finderPhone: null, finderEmail: 'victim@example.net' }]) {
      const report = await insertReport(owner.pet.id, values);
      const answer = await share(report.id, owner.token, 'Hi');
      expect(answer.status).toBe(429);
      expect(answer.body.errors).toEqual([messages.finderContactsPerDayExceeded]);
      expect((await db().select().from(foundReports).where(eq(foundReports.id, report.id)))[0]!.phoneSharedAt).toBeNull();
    }
    expect(await textsTo(finderPhone)).toHaveLength(3);

    // A day later the number may be reached again.
    await db().update(textOutbox).set({ createdAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(textOutbox.recipient, finderPhone));
    expect((await share((await insertReport(owner.pet.id, { finderPhone })).id, owner.token)).status).toBe(200);
  });
});

describe('POST found-reports/{id}/reunited', () => {
  it('ends the open alert as Mark as found does: the recipients are thanked and the profile shows the pet found', async () => {
    const { token, pet } = await ownerWithLostPet();
    const vet = (await siteNear('63101', 1)).email!;
    const alert = await sendAndPay(token, pet.id, { zipCode: '63101' });
    await db().update(alertEmails).set({ status: 'delivered', deliveredAt: new Date() }).where(and(eq(alertEmails.alertId, alert.id), eq(alertEmails.recipient, vet)));
    const report = await insertReport(pet.id);
    const earlier = await insertReport(pet.id, { createdAt: new Date(Date.now() - 600_000) });

    const done = await reunited(report.id, token);
    expect(done.status).toBe(200);
    expect(done.body.result).toMatchObject({ id: report.id, reunited: true, reunitedAt: expect.any(String), opened: true });
    expect((await db().select().from(petAlerts).where(eq(petAlerts.id, alert.id)))[0]!.status).toBe('found');
    expect(await recipientsOf(alert.id, 'found')).toEqual([vet]);
    const profile = await call<PublicProfile>(ctx.app, 'GET', `pet/pet-profiles/${pet.publicId}`);
    expect(profile.body.result!.pet).toMatchObject({ foundSince: expect.stringMatching(/ago$/), alertStatus: null, missingDate: null });
    // The pet is home: its other report is settled too, so it goes to nobody.
    expect((await db().select().from(foundReports).where(eq(foundReports.id, earlier.id)))[0]!.reunitedAt).not.toBeNull();

    // Again: nothing more happens, and nobody is thanked twice.
    const again = await reunited(report.id, token);
    expect(again.status).toBe(200);
    expect(again.body.result!.reunitedAt).toBe(done.body.result!.reunitedAt);
    expect(await recipientsOf(alert.id, 'found')).toEqual([vet]);
    expect((await call<PetAlert>(ctx.app, 'GET', `petalert/alerts/bypet/${pet.id}`, { token })).body.result).toMatchObject({ id: alert.id, status: 'found' });
    expect((await call(ctx.app, 'PUT', `pet/mark-as-found/${pet.id}`, { token })).body.errors).toEqual([messages.noAlertsFound]);
  });

  it('marks a pet with no open alert reunited, its profile still safe at home', async () => {
    const owner = await ownerWithPet();
    const report = await insertReport(owner.pet.id);
    expect((await reunited(report.id, owner.token)).body.result).toMatchObject({ reunited: true });
    expect(await db().select().from(petAlerts).where(eq(petAlerts.petId, owner.pet.id))).toEqual([]);
  });
});

describe('escalation of a report nobody opened', () => {
  const settings = { backupAfterMinutes: 15, vetsAfterMinutes: 120 };
  const minutes = (n: number) => n * 60_000;

  /** An owner with confirmed, unconfirmed and removed backup contacts, and vets linked to the pet in every state. */
  async function ownerWithHelpers() {
    const owner = await ownerWithPet();
    const suffix = String(finderCounter++).padStart(4, '0').slice(-4);
    const phones = { confirmed: `+1636555${suffix}`, unconfirmed: `+1573555${suffix}`, removed: `+1660555${suffix}` };
    await db().insert(backupContacts).values([
      { userId: owner.user.id, name: 'Pat', phoneNumber: phones.confirmed, phoneConfirmedAt: new Date() },
      { userId: owner.user.id, name: 'Lee', phoneNumber: phones.unconfirmed },
      { userId: owner.user.id, name: 'Kim', phoneNumber: phones.removed, phoneConfirmedAt: new Date(), deletedAt: new Date() },
    ]);
    const vet = (name: string, values: Partial<typeof sites.$inferInsert>) => ({ name, email: `${name}-${suffix}@vets.example`, source: 'admin', ...values });
    const linked = await db()
      .insert(sites)
      .values([vet('active', {}), vet('inactive', { isActive: false }), vet('silent', { email: null }), vet('unlinked', {})])
      .returning();
    await db().insert(sitePets).values(linked.map((site) => ({ siteId: site.id, petId: owner.pet.id, ...(site.name === 'unlinked' && { deletedAt: new Date() }) })));
    return { ...owner, phones, vets: Object.fromEntries(linked.map((site) => [site.name, site.email])) as Record<string, string | null> };
  }

  it('texts the confirmed backup contacts after 15 minutes and e-mails the active vets after 2 hours, each once', async () => {
    const owner = await ownerWithHelpers();
    const T = Date.now();
    const report = await insertReport(owner.pet.id, { createdAt: new Date(T), finderEmail: 'sam@example.net' });
    const allPhones = Object.values(owner.phones);
    const texts = () => db().select().from(textOutbox).where(inArray(textOutbox.recipient, allPhones));
    const vetMails = () => db().select().from(mailOutbox).where(inArray(mailOutbox.recipient, Object.values(owner.vets).filter((e): e is string => e !== null)));

    await escalateFoundReports(db(), settings, new Date(T + minutes(14)));
    expect(await texts()).toEqual([]);

    // Two workers sweeping at the same moment: one text.
    await Promise.all([escalateFoundReports(db(), settings, new Date(T + minutes(16))), escalateFoundReports(db(), settings, new Date(T + minutes(16)))]);
    await escalateFoundReports(db(), settings, new Date(T + minutes(17)));
    expect((await texts()).map((t) => ({ to: t.recipient, kind: t.kind, body: t.body }))).toEqual([
      {
        to: owner.phones.confirmed,
        kind: 'found-report-backup',
        body: `Jamie's pet Biscuit was found. The finder Sam Finder can be reached at ${'(314) 555 - ' + report.finderPhone!.slice(-4)} or sam@example.net. Please tell Jamie.`,
      },
    ]);
    expect(await vetMails()).toEqual([]);

    await escalateFoundReports(db(), settings, new Date(T + minutes(119)));
    expect(await vetMails()).toEqual([]);
    await escalateFoundReports(db(), settings, new Date(T + minutes(121)));
    await escalateFoundReports(db(), settings, new Date(T + minutes(180)));
    const mails = await vetMails();
    expect(mails.map((m) => m.recipient)).toEqual([owner.vets.active]);
    expect(mails[0]).toMatchObject({ kind: 'found-report-vet', subject: `Found: Biscuit (microchip ${owner.chip}), please help reach the owner`, html: null });
    expect(mails[0]!.text).toBe(
      [
        'Hello,',
        '',
        "Someone found Biscuit, a pet its owner registered with your practice as its vet, and the owner has not read the finder's report for 2 hours. If you know the owner, please call them and pass on the finder's contact.",
        '',
        'Pet: Biscuit',
        'Species: Dog',
        `Microchip: ${owner.chip}`,
        '',
        'Found by: Sam Finder',
        `Finder's contact: (314) 555 - ${report.finderPhone!.slice(-4)} or sam@example.net`,
        'Where the pet is now: Forest Park, 63110',
        '',
        "The finder's message:",
        'Found near the park.\nShe is fine, eating now.',
        '',
      ].join('\n'),
    );
    expect(await texts()).toHaveLength(1);
    const [row] = await db().select().from(foundReports).where(eq(foundReports.id, report.id));
    expect(row!.backupContactsToldAt!.getTime()).toBeGreaterThanOrEqual(T + minutes(16) - 1000);
    expect(row!.vetsToldAt).not.toBeNull();
    // The owner sees on the report who was told.
    expect((await open(report.id, owner.token)).body.result).toMatchObject({ backupContactsToldAt: expect.any(String), vetsToldAt: expect.any(String) });
  });

  it('tells nobody of a report the owner opened, or of a pet marked reunited', async () => {
    const owner = await ownerWithHelpers();
    const T = Date.now();
    const opened = await insertReport(owner.pet.id, { createdAt: new Date(T) });
    const settled = await insertReport(owner.pet.id, { createdAt: new Date(T) });
    expect((await open(opened.id, owner.token)).status).toBe(200);
    expect((await reunited(settled.id, owner.token)).status).toBe(200);
    await escalateFoundReports(db(), settings, new Date(T + minutes(16)));
    await escalateFoundReports(db(), settings, new Date(T + minutes(121)));
    expect(await db().select().from(textOutbox).where(inArray(textOutbox.recipient, Object.values(owner.phones)))).toEqual([]);
    expect(await mailsTo(owner.vets.active!)).toEqual([]);
    const rows = await db().select().from(foundReports).where(inArray(foundReports.id, [opened.id, settled.id]));
    expect(rows.map((r) => [r.backupContactsToldAt, r.vetsToldAt])).toEqual([
      [null, null],
      [null, null],
    ]);
  });

  it('stops before the vets when the owner opens the report after the backup contacts were texted', async () => {
    const owner = await ownerWithHelpers();
    const T = Date.now();
    const report = await insertReport(owner.pet.id, { createdAt: new Date(T) });
    await escalateFoundReports(db(), settings, new Date(T + minutes(16)));
    expect(await textsTo(owner.phones.confirmed)).toHaveLength(1);
    await open(report.id, owner.token);
    await escalateFoundReports(db(), settings, new Date(T + minutes(121)));
    expect(await mailsTo(owner.vets.active!)).toEqual([]);
  });
});

describe('found reports after the pet moves to another owner', () => {
  const settings = { backupAfterMinutes: 15, vetsAfterMinutes: 120 };
  const minutes = (n: number) => n * 60_000;
  const transfer = (petId: number, email: string) => call(ctx.app, 'POST', `admin/transfer-pet/${petId}`, { token: admin.token, body: { Email: email } });

  /** An owner whose backup contact's number is confirmed, with a verified mobile and a vet linked to the pet. */
  async function ownerWithBackup() {
    const owner = await ownerWithVerifiedPhone();
    const phone = `+1417555${String(finderCounter++).padStart(4, '0').slice(-4)}`;
    await db().insert(backupContacts).values({ userId: owner.user.id, name: 'Pat', phoneNumber: phone, phoneConfirmedAt: new Date() });
    return { ...owner, backupPhone: phone };
  }

  it("keeps each report with the owner it was made to: the previous owner reads it, cannot act on it, and the new owner never sees it", async () => {
    const previous = await ownerWithBackup();
    const next = await ownerWithBackup();
    const T = Date.now();
    const read = await insertReport(previous.pet.id, { createdAt: new Date(T) });
    const unread = await insertReport(previous.pet.id, { createdAt: new Date(T) });
    expect((await open(read.id, previous.token)).status).toBe(200);
    expect((await transfer(previous.pet.id, next.input.email)).status).toBe(200);

    // The previous owner still reads the reports made to them, marked transferred.
    const theirs = (await list(previous.token)).body.result!;
    expect(theirs.items.filter((r) => r.petId === previous.pet.id).map((r) => [r.id, r.petTransferred])).toEqual([
      [unread.id, true],
      [read.id, true],
    ]);
    expect((await open(read.id, previous.token)).body.result).toMatchObject({ id: read.id, petTransferred: true, finderEmail: read.finderEmail });
    // But shares no phone and marks nothing reunited on the new owner's pet.
    for (const answer of [await share(read.id, previous.token), await reunited(read.id, previous.token)]) {
      expect([answer.status, answer.body]).toEqual([403, { succeeded: false, result: null, errors: [messages.foundReportPetTransferred] }]);
    }
    expect(await textsTo(read.finderPhone!)).toEqual([]);
    expect((await db().select().from(foundReports).where(eq(foundReports.id, read.id)))[0]).toMatchObject({ phoneSharedAt: null, reunitedAt: null });

    // The new owner: none of the finder's contact given to the previous owner.
    const newOwners = (await list(next.token)).body.result!;
    expect(newOwners.items.map((r) => r.id)).not.toContain(read.id);
    expect(newOwners.items.map((r) => r.id)).not.toContain(unread.id);
    for (const id of [read.id, unread.id]) {
      expect((await open(id, next.token)).status).toBe(404);
      expect((await share(id, next.token)).status).toBe(404);
      expect((await reunited(id, next.token)).status).toBe(404);
      expect((await call(ctx.app, 'GET', `found-reports/${id}/photo`, { token: next.token })).status).toBe(404);
    }

    // A finder who reports the pet now writes to the new owner, who may act on it.
    const sent = await call(ctx.app, 'POST', 'public/found-report', {
      ip: '10.77.0.1',
      body: { publicId: previous.pet.publicId, name: 'Robin Finder', phone: '(314) 555-0177', message: 'Found her by the river.', where: '63110' },
    });
    expect(sent.status).toBe(200);
    const [made] = await db().select().from(foundReports).where(and(eq(foundReports.petId, previous.pet.id), eq(foundReports.finderName, 'Robin Finder')));
    expect(made!.ownerId).toBe(next.user.id);
    expect((await list(next.token)).body.result!.items.map((r) => [r.id, r.petTransferred])).toEqual([[made!.id, false]]);
    expect((await open(made!.id, previous.token)).status).toBe(404);
    expect((await share(made!.id, next.token)).status).toBe(200);
    expect((await reunited(made!.id, next.token)).body.result).toMatchObject({ reunited: true });
    // Reunited settles the new owner's reports only.
    expect((await db().select().from(foundReports).where(eq(foundReports.id, unread.id)))[0]!.reunitedAt).toBeNull();
  });

  it("escalates a report to the backup contacts of the owner it was made to only while that owner holds the pet", async () => {
    const previous = await ownerWithBackup();
    const next = await ownerWithBackup();
    const T = Date.now();
    const before = await insertReport(previous.pet.id, { createdAt: new Date(T) });
    expect((await transfer(previous.pet.id, next.input.email)).status).toBe(200);
    const after = await insertReport(previous.pet.id, { createdAt: new Date(T) });
    expect(after.ownerId).toBe(next.user.id);

    await escalateFoundReports(db(), settings, new Date(T + minutes(16)));
    await escalateFoundReports(db(), settings, new Date(T + minutes(121)));
    // The previous owner's contacts are not told of the pet they no longer hold, nor the new owner's of a report not made to them.
    expect(await textsTo(previous.backupPhone)).toEqual([]);
    const told = await textsTo(next.backupPhone);
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toContain(after.finderEmail!);
    expect(told[0]!.body).not.toContain(before.finderEmail!);
    const rows = await db().select().from(foundReports).where(inArray(foundReports.id, [before.id, after.id])).orderBy(foundReports.id);
    expect(rows.map((r) => r.backupContactsToldAt === null)).toEqual([true, false]);
    expect(rows.map((r) => r.vetsToldAt === null)).toEqual([true, false]);

    // Back with the owner it was made to, the report goes on as any other.
    expect((await transfer(previous.pet.id, previous.input.email)).status).toBe(200);
    await escalateFoundReports(db(), settings, new Date(T + minutes(122)));
    expect(await textsTo(previous.backupPhone)).toHaveLength(1);
    expect((await open(before.id, previous.token)).body.result).toMatchObject({ petTransferred: false });
  });
});
