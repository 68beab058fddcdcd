import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { messages, type AuthResult, type Pet, type StaticData, type User } from '@petreg/contract';
import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertEmails, chips, foundReports, mailOutbox, payments, petAlerts, petTransfers, pets, sitePets, sites, users } from '../src/db/schema.js';
import { queryRows } from '../src/db/client.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { alertKit } from './alertKit.js';
import { call, createTestApp, registerPet, signUpConfirmationToken, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: AuthResult;
const db = () => ctx.database.db;
const kit = alertKit(() => ctx);
const REGISTRY_PHONE = '(888) 555-0247';

beforeAll(async () => {
  ctx = await createTestApp({ env: { REGISTRY_PHONE, REGISTRY_NAME: 'Chip Registry' } });
  await ensureAdministrator(db(), { email: 'data-admin@example.com', password: 'Admin#Pass1' });
  admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'data-admin@example.com', password: 'Admin#Pass1' } })).body.result!;
});
afterAll(() => ctx.close());

let serial = 0;
const photo = async (color: string) =>
  `data:image/png;base64,${(await sharp({ create: { width: 64, height: 48, channels: 3, background: color } }).png().toBuffer()).toString('base64')}`;
const fileOf = (url: string | null) => url!.split('/').at(-1)!;
const stored = (folder: string, name: string) => existsSync(join(ctx.outboxDir, 'uploads', folder, name));

/**
 * An owner with details found nowhere else: a photo, an address, a chipped pet with a photo linked to a
 * vet, a backup contact, a lost pet whose alert was paid and sent, a finder's report with a photo, a
 * pending change of e-mail and a texted phone code.
 */
async function fullOwner() {
  const n = ++serial;
  const details = {
    firstName: `Zebulonia${n}`,
    lastName: `Quixotrelle${n}`,
    email: `zebulonia.q${n}.${Date.now()}@example.com`,
    phone: `31455501${String(10 + n)}`,
    address1: `742 Evergreen Quasar Terrace ${n}`,
    contactName: `Ottoline Brimblecombe${n}`,
    contactPhone: `50355502${String(10 + n)}`,
  };
  const owner = await signUpOwner(ctx.app, { firstName: details.firstName, lastName: details.lastName, email: details.email, phoneNumber: details.phone });
  const token = owner.token;
  const profile = {
    firstName: details.firstName,
    lastName: details.lastName,
    email: details.email,
    phoneNumber: details.phone,
    address1: details.address1,
    address2: '',
    city: 'Springfield',
    stateId: 1,
    zipcode: '62701',
    notifyByEmail: true,
    notifyBySms: false,
    photo: await photo('#3060c0'),
  };
  const saved = await call<User>(ctx.app, 'PUT', `Users/${owner.user.id}`, { token, body: profile });
  expect(saved.status).toBe(200);
  const userPhoto = fileOf(saved.body.result!.data.photoUrl);
  expect((await call(ctx.app, 'POST', 'Users/backup-contact', { token, body: { name: details.contactName, phoneNumber: details.contactPhone } })).status).toBe(200);
  expect((await call(ctx.app, 'POST', 'Users/send-phone-code', { token })).status).toBe(200);

  const chipId = uniqueChip();
  const pet = await registerPet(ctx.app, token, chipId);
  const withPhoto = await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token, body: await kit.profileOf(pet, { name: 'Marmaduke', image: await photo('#c08040') }) });
  expect(withPhoto.status).toBe(200);
  const petPhoto = withPhoto.body.result!.image!;
  // As a paid plan leaves it: the chip answers the lookups.
  await db().update(pets).set({ isActive: true }).where(eq(pets.id, pet.id));
  await db().update(chips).set({ isActive: true }).where(eq(chips.petId, pet.id));
  const vet = await kit.siteNear('63101', 1, { name: `Riverside Clinic ${n}` });
  await db().insert(sitePets).values({ siteId: vet.id, petId: pet.id });

  // Another pet is lost: its alert is paid and goes to a clinic near where it was last seen.
  const lost = await registerPet(ctx.app, token, null);
  expect((await call(ctx.app, 'PUT', 'Pet/pet-profile', { token, body: await kit.profileOf(lost) })).status).toBe(200);
  const alert = await kit.sendAndPay(token, lost.id, { incidentDescription: `Ran off from ${details.address1}` });

  const finderPhoto = `${'a'.repeat(31)}${n}.jpg`.slice(-36);
  await db().insert(foundReports).values({
    petId: pet.id,
    ownerId: owner.user.id,
    finderName: `Finder Fennimore${n}`,
    finderPhone: '+13145559876',
    finderEmail: `fennimore${n}@example.net`,
    message: `Found Marmaduke, call ${details.firstName}`,
    location: 'Forest Park',
    photo: finderPhoto,
  });
  // A change of e-mail waiting for its link.
  expect(
    (await call(ctx.app, 'PUT', `Users/${owner.user.id}`, { token, body: { ...profile, photo: undefined, email: `new-${details.email}`, currentPassword: owner.input.password } }))
      .status,
  ).toBe(200);
  // A transfer the owner offered (the invitation names them by first name), and one another owner offered them.
  expect((await call(ctx.app, 'POST', `Pet/${pet.id}/transfer`, { token, body: { email: `heir${n}@example.net` } })).status).toBe(200);
  const giver = await signUpOwner(ctx.app);
  const given = await registerPet(ctx.app, giver.token, null);
  expect((await call(ctx.app, 'POST', `Pet/${given.id}/transfer`, { token: giver.token, body: { email: details.email } })).status).toBe(200);
  // An administrator's edit: the audit log keeps the record before and after.
  expect((await call(ctx.app, 'PUT', `Users/${owner.user.id}`, { token: admin.token, body: { ...profile, photo: undefined } })).status).toBe(200);
  return { ...owner, details, chipId, pet, lost, given, alert, vet, userPhoto, petPhoto, finderPhoto };
}

const exportOf = (token?: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/v2/Users/export', headers: token ? { authorization: `Bearer ${token}` } : {}, remoteAddress: '127.0.0.1' });

describe('GET Users/export', () => {
  it("answers one JSON file of the account's records, with no code of a link and no other person's address list", async () => {
    const owner = await fullOwner();
    const other = await signUpOwner(ctx.app);
    await db().insert(mailOutbox).values({ recipient: owner.details.email, kind: 'receipt', subject: 'Before your time', text: 'An earlier holder', createdAt: new Date(Date.now() - 86_400_000) });
    const response = await exportOf(owner.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="pet-registry-data-${owner.user.id}-\\d{4}-\\d{2}-\\d{2}\\.json"$`));
    const file = response.json();
    expect(Object.keys(file)).toEqual(['registry', 'exportedAt', 'accountId', 'profile', 'pets', 'backupContacts', 'vets', 'payments', 'alerts', 'foundReports', 'transfers', 'emails', 'texts']);
    expect(file.profile).toMatchObject({ email: owner.details.email, firstName: owner.details.firstName, address1: owner.details.address1, photo: owner.userPhoto });
    const marmaduke = file.pets.find((p: { id: number }) => p.id === owner.pet.id);
    expect(marmaduke).toMatchObject({ name: 'Marmaduke', image: owner.petPhoto, chips: [{ chipId: owner.chipId, brand: expect.any(String), isActive: true }] });
    expect(file.backupContacts).toEqual([expect.objectContaining({ name: owner.details.contactName, phoneNumber: `+1${owner.details.contactPhone}` })]);
    expect(file.vets).toEqual([expect.objectContaining({ petId: owner.pet.id, name: owner.vet.name })]);
    expect(file.payments).toEqual([expect.objectContaining({ plan: 'Lost Pet Alert', amountCents: 1499, cardLast4: '4242', status: 'paid' })]);
    const recipients = (await kit.recipientsOf(owner.alert.id)).length;
    expect(file.alerts).toEqual([expect.objectContaining({ petId: owner.lost.id, status: 'paid', recipientsCount: recipients, emails: { pending: recipients, opened: 0 } })]);
    expect(file.transfers).toEqual([
      expect.objectContaining({ direction: 'offered by you', petId: owner.pet.id, toEmail: expect.stringMatching(/^heir\d+@example\.net$/), status: 'open' }),
      expect.not.objectContaining({ toEmail: expect.anything() }),
    ]);
    expect(file.transfers[1]).toMatchObject({ direction: 'offered to you', status: 'open' });
    expect(file.foundReports).toEqual([expect.objectContaining({ finderName: expect.stringMatching(/^Finder Fennimore/), message: expect.stringContaining('Found Marmaduke') })]);
    const kinds = file.emails.map((m: { kind: string }) => m.kind);
    expect(kinds).toContain('email-confirmation');
    // A mail to the address from before the account had it was someone else's: it is not in the file.
    expect(file.emails.map((m: { subject: string }) => m.subject)).not.toContain('Before your time');
    expect(file.texts).toEqual([expect.objectContaining({ kind: 'phone-code', to: `+1${owner.details.phone}`, body: expect.stringContaining('[hidden]') })]);

    const text = response.body;
    // The e-mail confirmation link's code, waiting in the outbox, is not in the file.
    expect(text).not.toContain(await signUpConfirmationToken(ctx, owner.details.email));
    // The alert reached a clinic: the file counts it, and never names it.
    expect(text).not.toContain((await kit.recipientsOf(owner.alert.id))[0]);
    expect(text).not.toContain(other.input.email);
    expect(text).not.toContain('passwordHash');
  });

  it('gives the mails to an address taken by a change of e-mail from the change on, and the sign-up\'s mails however long ago', async () => {
    const owner = await signUpOwner(ctx.app);
    const newEmail = `taken-${owner.input.email}`;
    await db().insert(mailOutbox).values({ recipient: newEmail, kind: 'receipt', subject: 'Before the change', text: 'An earlier holder', createdAt: new Date(Date.now() - 60_000) });
    // Signed up an hour ago: the sign-up's mails are the owner's, even when its link was left unused (a change voids it).
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await db().update(users).set({ createdAt: anHourAgo }).where(eq(users.id, owner.user.id));
    await db().update(mailOutbox).set({ createdAt: anHourAgo }).where(eq(mailOutbox.recipient, owner.input.email));
    const { firstName, lastName, phoneNumber, password } = owner.input;
    const changed = await call(ctx.app, 'PUT', `Users/${owner.user.id}`, {
      token: owner.token,
      body: { firstName, lastName, phoneNumber, email: newEmail, currentPassword: password, address1: '1 Main St', city: 'Springfield', stateId: 1, zipcode: '62701' },
    });
    expect(changed.status).toBe(200);
    const kindsBefore = (await exportOf(owner.token)).json().emails.map((m: { kind: string }) => m.kind);
    expect(kindsBefore).toContain('email-confirmation');

    const token = await signUpConfirmationToken(ctx, newEmail, 'email-change');
    const followed = await call(ctx.app, 'POST', 'Users/confirm-email', { body: { token } });
    expect(followed.status).toBe(200);
    const subjects = (await exportOf(owner.token)).json().emails.map((m: { subject: string }) => m.subject);
    expect(subjects).not.toContain('Before the change');
  });

  it('needs a signed-in owner', async () => {
    expect((await exportOf()).statusCode).toBe(401);
  });
});

/** pdf.js reads the 14 standard fonts' metrics (the card's Helvetica) from its own package. */
const standardFontDataUrl = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts/');

const cardOf = (petId: number, token?: string, query = '') =>
  ctx.app.inject({ method: 'GET', url: `/api/v2/Pet/${petId}/card.pdf${query}`, headers: token ? { authorization: `Bearer ${token}` } : {}, remoteAddress: '127.0.0.1' });

async function readPdf(bytes: Buffer) {
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, standardFontDataUrl }).promise;
  const page = await pdf.getPage(1);
  const content = await page.getTextContent();
  const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
  const images = (await page.getOperatorList()).fnArray.filter((fn) => fn === 85 /* OPS.paintImageXObject */).length;
  return { pages: pdf.numPages, size: page.view.slice(2).map((v) => Math.round(v)), text, images };
}

describe('GET Pet/{id}/card.pdf', () => {
  it("draws one page in A6 and in Letter with the pet's photo, name, chip and brand, its short link's QR code and the 24/7 line", async () => {
    const owner = await fullOwner();
    const a6 = await cardOf(owner.pet.id, owner.token, '?size=a6');
    expect(a6.statusCode).toBe(200);
    expect(a6.headers['content-type']).toBe('application/pdf');
    expect(a6.headers['content-disposition']).toBe(`inline; filename="Marmaduke-card-a6.pdf"; filename*=UTF-8''Marmaduke-card-a6.pdf`);
    const small = await readPdf(a6.rawPayload);
    expect(small.pages).toBe(1);
    expect(small.size).toEqual([298, 420]);
    expect(small.text).toContain('Marmaduke');
    expect(small.text).toContain(`Microchip ${owner.chipId}`);
    const brand = (await call<StaticData>(ctx.app, 'GET', 'utilities/static-data')).body.result!.brands.find((b) => b.id === owner.pet.chips[0]!.chipTypeId)!;
    expect(small.text).toMatch(new RegExp(`Microchip ${owner.chipId} +· +${brand.name}`));
    expect(small.text).toContain(REGISTRY_PHONE);
    const shortLink = (await call<Pet>(ctx.app, 'GET', `Pet/${owner.pet.id}`, { token: owner.token })).body.result!.shortId;
    expect(small.text).toContain(`http://localhost:3000/short/${shortLink}`);
    // The photo and the QR code.
    expect(small.images).toBe(2);

    const letter = await readPdf((await cardOf(owner.pet.id, owner.token, '?size=letter')).rawPayload);
    expect([letter.pages, letter.size]).toEqual([1, [612, 792]]);
    expect(letter.text).toContain(`Microchip ${owner.chipId}`);
    // A6 without a size named.
    expect((await readPdf((await cardOf(owner.pet.id, owner.token)).rawPayload)).size).toEqual([298, 420]);
  });

  it("is the owner's only: another owner's pet, a removed or unknown one is not found; a size not offered is refused", async () => {
    const owner = await signUpOwner(ctx.app);
    const pet = await registerPet(ctx.app, owner.token);
    const stranger = await signUpOwner(ctx.app);
    const refused = await cardOf(pet.id, stranger.token);
    expect([refused.statusCode, refused.json().errors]).toEqual([404, [messages.notFound]]);
    expect((await cardOf(999_999, owner.token)).statusCode).toBe(404);
    expect((await cardOf(pet.id)).statusCode).toBe(401);
    expect((await cardOf(pet.id, owner.token, '?size=a4')).statusCode).toBe(400);
    await db().update(pets).set({ deletedAt: new Date() }).where(eq(pets.id, pet.id));
    expect((await cardOf(pet.id, owner.token)).statusCode).toBe(404);
  });
});

const close = (token: string | undefined, password: string) => call(ctx.app, 'POST', 'Users/close-account', { token, body: { password } });

/** Every text, varchar, array and jsonb column of every table, with the rows where any needle appears. */
async function findAnywhere(needles: string[]) {
  const rowsOf = <Row>(query: SQL) => queryRows<Row>(db(), query);
  const columns = await rowsOf<{ table_name: string; column_name: string }>(sql`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
    where c.table_schema = 'public' and c.data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'USER-DEFINED', 'uuid')`);
  expect(columns.length).toBeGreaterThan(100);
  const byTable = new Map<string, typeof columns>();
  for (const c of columns) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c]);
  const found: string[] = [];
  // One scan a table: a count for each (column, needle).
  for (const [table, tableColumns] of byTable) {
    const checks = tableColumns.flatMap(({ column_name: column }) =>
      needles.map((needle) => {
        const value = sql.raw(`"${column}"::text`);
        const digits = needle.replace(/\D/g, '');
        // A phone is found however it is written: its digits, with any punctuation between them.
        const asPhone = digits.length >= 10 ? sql` or strpos(regexp_replace(${value}, '\\D', '', 'g'), ${digits}) > 0` : sql``;
        return { label: `${table}.${column} holds ${needle}`, count: sql`count(*) filter (where strpos(lower(${value}), ${needle.toLowerCase()}) > 0${asPhone})::int` };
      }),
    );
    const [row] = await rowsOf<Record<string, number>>(
      sql`select ${sql.join(checks.map((c, i) => sql`${c.count} as ${sql.raw(`c${i}`)}`), sql`, `)} from ${sql.raw(`"${table}"`)}`,
    );
    checks.forEach((check, i) => {
      if (row![`c${i}`]! > 0) found.push(`${check.label} (${row![`c${i}`]})`);
    });
  }
  return found;
}

describe('POST Users/close-account', () => {
  it('a wrong password changes nothing', async () => {
    const owner = await signUpOwner(ctx.app);
    const answer = await close(owner.token, 'Not-the#password1');
    expect([answer.status, answer.body.errors]).toEqual([400, [messages.currentPasswordWrong]]);
    expect((await call(ctx.app, 'GET', 'Users/current-user', { token: owner.token })).status).toBe(200);
    expect((await call(ctx.app, 'POST', 'Users/login', { body: { email: owner.input.email, password: owner.input.password } })).status).toBe(200);
  });

  it('is refused to an administrator, and without a session or a password', async () => {
    const answer = await close(admin.token, 'Admin#Pass1');
    expect([answer.status, answer.body.errors]).toEqual([403, [messages.adminCannotCloseAccount]]);
    expect((await call(ctx.app, 'GET', 'Users/current-user', { token: admin.token })).status).toBe(200);
    expect((await close(undefined, 'x')).status).toBe(401);
    const owner = await signUpOwner(ctx.app);
    const empty = await close(owner.token, '');
    expect([empty.status, empty.body.errors]).toEqual([400, [messages.passwordRequired]]);
  });

  it("erases the owner's details from every table at once, ends the sessions, takes the pets off the lookups and frees the e-mail", async () => {
    const owner = await fullOwner();
    const bystander = await fullOwner();
    const { details } = owner;
    const profile = await call(ctx.app, 'GET', `pet/pet-profiles/${owner.pet.publicId}`);
    expect(profile.status).toBe(200);
    const lookup = () => ctx.app.inject({ method: 'GET', url: `/api/v2/public/lookup/${owner.chipId}`, remoteAddress: '10.9.0.7' });
    expect((await lookup()).json().result.registered).toBe(true);
    await db().insert(mailOutbox).values({ recipient: details.email, kind: 'receipt', subject: 'Queued for you', text: `Hello ${details.firstName}` });
    const [paidBefore] = await db().select().from(payments).where(eq(payments.userId, owner.user.id));

    const answer = await close(owner.token, owner.input.password);
    expect([answer.status, answer.body]).toEqual([200, { succeeded: true, result: true, errors: [] }]);

    // Signed out everywhere, and the address signs in no more.
    expect((await call(ctx.app, 'GET', 'Users/current-user', { token: owner.token })).status).toBe(401);
    const login = await call(ctx.app, 'POST', 'Users/login', { body: { email: details.email, password: owner.input.password } });
    expect([login.status, login.body.errors]).toEqual([400, [messages.invalidCredentials]]);
    // Off the public profile, the short link, both lookups.
    expect((await call(ctx.app, 'GET', `pet/pet-profiles/${owner.pet.publicId}`)).status).toBe(404);
    expect((await lookup()).json().result.registered).toBe(false);
    expect((await call(ctx.app, 'GET', `utilities/microchip-lookup?id=${owner.chipId}`)).body.result).toMatchObject({ isRegistered: false, result: null });
    // The open alert ended; its unsent e-mails and the queued mail to the owner are dropped.
    const [alert] = await db().select().from(petAlerts).where(eq(petAlerts.id, owner.alert.id));
    expect(alert!.status).toBe('ended');
    const alertMails = await db().select().from(alertEmails).where(eq(alertEmails.alertId, owner.alert.id));
    expect(alertMails.length).toBeGreaterThan(0);
    expect(new Set(alertMails.map((m) => m.status))).toEqual(new Set(['canceled']));
    const queued = await db().select().from(mailOutbox).where(and(eq(mailOutbox.subject, 'Queued for you')));
    expect(queued).toEqual([]);
    // The transfers it offered, and the one offered to it, are no longer open.
    const offers = await db().select().from(petTransfers).where(or(eq(petTransfers.fromUserId, owner.user.id), eq(petTransfers.petId, owner.given.id)));
    expect(offers.map((o) => o.status)).toEqual(['canceled', 'canceled']);
    // Photos are gone from disk.
    expect(stored('user-images', owner.userPhoto)).toBe(false);
    expect(stored('pet-images', owner.petPhoto)).toBe(false);
    expect(stored('user-images', bystander.userPhoto)).toBe(true);
    // Payments keep what the accounts need.
    const [paid] = await db().select().from(payments).where(eq(payments.userId, owner.user.id));
    expect(paid).toEqual({ ...paidBefore, customerName: null, customerEmail: null });

    const needles = [
      details.firstName,
      details.lastName,
      details.email,
      details.phone,
      details.address1,
      details.contactName,
      details.contactPhone,
      owner.userPhoto,
      owner.petPhoto,
      owner.finderPhoto,
      `Finder Fennimore${serial - 1}`,
    ];
    expect(await findAnywhere(needles)).toEqual([]);
    // The check finds what is there: the other owner's details are all still held.
    const bystanderHits = await findAnywhere([bystander.details.firstName, bystander.details.email, bystander.details.contactName, bystander.details.phone, bystander.petPhoto]);
    for (const table of ['users.first_name', 'users.email', 'backup_contacts.name', 'users.phone_number', 'pets.image']) {
      expect(bystanderHits.some((hit) => hit.startsWith(table))).toBe(true);
    }

    // The address is free for a new account at once.
    const again = await call<AuthResult>(ctx.app, 'POST', 'Users/signup', { body: { ...owner.input, firstName: 'Zeb' } });
    expect(again.status).toBe(200);
    expect(again.body.result!.user.id).not.toBe(owner.user.id);
    const [closed] = await db().select().from(users).where(eq(users.id, owner.user.id));
    expect(closed).toMatchObject({ isActive: false, firstName: '', passwordHash: null, email: `closed-account-${owner.user.id}@closed.invalid` });
    const [site] = await db().select().from(sites).where(eq(sites.id, owner.vet.id));
    expect(site!.name).toBe(owner.vet.name);
  }, 120_000);
});
