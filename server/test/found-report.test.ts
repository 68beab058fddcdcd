import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { messages, type FoundReportSent, type FoundReportTarget, type Pet, type User } from '@petreg/contract';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMailer } from '../src/adapters/mail/index.js';
import { backupContacts, chips, foundReports, mailOutbox, pets, textOutbox, users } from '../src/db/schema.js';
import { reportsPerPetPerDay } from '../src/modules/foundReports/report.js';
import { sendDueMail } from '../src/worker/outbox.js';
import { call, createTestApp, readOutbox, registerPet, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

let ctx: TestContext;
const db = () => ctx.database.db;
const PUBLIC_URL = 'https://registry.example.org';

beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL } });
});
afterAll(() => ctx.close());

let ownerCount = 0;
/** An owner whose every detail is distinctive, so a test can tell none of it reached a finder. */
async function ownerWithPet(options: { phoneVerified?: boolean } = {}) {
  const n = ownerCount++;
  const details = {
    firstName: 'Zebulon',
    lastName: `Quillfeather${n}`,
    email: `zebulon.quillfeather${n}.${Date.now()}@example.com`,
    phoneNumber: '(415) 555-0199',
  };
  const owner = await signUpOwner(ctx.app, details);
  await db()
    .update(users)
    .set({ city: 'Walla Walla', address1: '77 Marigold Lane', phoneVerifiedAt: options.phoneVerified ? new Date() : null })
    .where(eq(users.id, owner.user.id));
  const chipId = uniqueChip();
  const pet = await registerPet(ctx.app, owner.token, chipId);
  // A paid registration: the lookup calls the chip registered.
  await db().update(pets).set({ isActive: true }).where(eq(pets.id, pet.id));
  await db().update(chips).set({ isActive: true, expirationDate: new Date(Date.now() + 365 * 86_400_000) }).where(eq(chips.petId, pet.id));
  const owned = [details.firstName, details.lastName, details.email, '555-0199', '5550199', 'Walla Walla', 'Marigold'];
  return { owner, pet, chipId, owned };
}

const finder = { name: 'Robin Hale', phone: '(314) 555-0142', email: 'robin.hale@example.net', message: 'Found her by the park.\nShe is safe with me.', where: '63101' };

const report = (body: Record<string, unknown>, ip?: string) => call<FoundReportSent>(ctx.app, 'POST', 'public/found-report', { body, ip });
const target = (query: string, ip?: string) => call<FoundReportTarget>(ctx.app, 'GET', `public/found-report?${query}`, { ip });
const reportsOf = (petId: number) => db().select().from(foundReports).where(eq(foundReports.petId, petId)).orderBy(foundReports.id);
const mailsTo = (email: string) => db().select().from(mailOutbox).where(and(eq(mailOutbox.recipient, email), eq(mailOutbox.kind, 'found-report')));
const textsFor = (userId: number) => db().select().from(textOutbox).where(eq(textOutbox.userId, userId));

/** Fails when any of the owner's details appears anywhere in the answer. */
function expectNothingOf(owned: string[], body: unknown) {
  const text = JSON.stringify(body);
  for (const detail of owned) expect(text).not.toContain(detail);
}

async function pngDataUrl() {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c84' } }).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

describe('the form a finder opens', () => {
  it('tells whether the pet exists and asks the owner\'s question; a chip number does not name the pet', async () => {
    const { owner, pet, chipId, owned } = await ownerWithPet();
    const byChip = await target(`chip=${chipId}`);
    expect(byChip.status).toBe(200);
    expect(byChip.body).toEqual({ succeeded: true, result: { petName: null, question: null }, errors: [] });

    const question = 'What colour is the collar?';
    const saved = await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token: owner.token, body: { id: pet.id, name: 'Biscuit', speciesId: pet.speciesId, chipId, confirmChip: chipId, chipTypeId: pet.chips[0]!.chipTypeId, verificationQuestion: question } });
    expect([saved.status, saved.body.result?.verificationQuestion]).toEqual([200, question]);

    const byProfile = await target(`pet=${pet.publicId}`);
    expect(byProfile.body.result).toEqual({ petName: 'Biscuit', question });
    expect((await target(`chip=${chipId}`)).body.result).toEqual({ petName: null, question });
    expectNothingOf(owned, byProfile.body);
    expectNothingOf(owned, (await target(`chip=${chipId}`)).body);
    // The public profile never shows the question.
    expect(JSON.stringify((await call(ctx.app, 'GET', `pet/pet-profiles/${pet.publicId}`)).body)).not.toContain(question);
  });

  it('answers 404 in the lookup\'s and the profile\'s words, and refuses a form naming no pet or two', async () => {
    const { pet, chipId } = await ownerWithPet();
    expect((await target('chip=985000000000001')).body.errors).toEqual([messages.lookupNotRegistered]);
    expect((await target(`pet=${crypto.randomUUID()}`)).body.errors).toEqual([messages.notFound]);
    expect((await target('pet=not-a-profile')).status).toBe(404);
    expect((await target('chip=12')).body.errors).toEqual([messages.lookupLength]);
    expect((await target('')).body.errors).toEqual([messages.invalidRequest]);
    expect((await target(`chip=${chipId}&pet=${pet.publicId}`)).body.errors).toEqual([messages.invalidRequest]);
  });
});

describe('a finder reports a pet', () => {
  it('by its chip: the report is kept, the owner mailed, and the answer says nothing of the owner', async () => {
    const { owner, pet, chipId, owned } = await ownerWithPet();
    const sent = await report({ chipId, ...finder, answer: 'Red' });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ succeeded: true, result: { message: messages.foundReportSent }, errors: [] });
    expectNothingOf(owned, sent.body);
    const [kept] = await reportsOf(pet.id);
    // No question was set, so no answer is kept as one.
    expect(kept).toMatchObject({ chipId, finderName: 'Robin Hale', finderPhone: '+13145550142', finderEmail: finder.email, message: finder.message, location: '63101', question: null, answer: null, photo: null });

    const [mail] = await mailsTo(owner.input.email);
    expect(mail!.subject).toBe('Someone found Biscuit');
    expect(mail!.text).toContain('> Found her by the park.\n> She is safe with me.');
    expect(mail!.text).toContain('Where Biscuit is now: 63101');
    expect(mail!.text).toContain('Phone: (314) 555 - 0142');
    expect(mail!.text).toContain(`Email: ${finder.email}`);
    expect(mail!.text).toContain(`Open the report: ${PUBLIC_URL}/client/found-reports/${kept!.id}`);
    expect(mail!.text).toContain('Never pay a finder in advance.');
    expect(mail!.html).toContain('Never pay a finder in advance.');
  });

  it('by its profile: the owner reads the answer to the question, in the e-mail the mail file holds', async () => {
    const { owner, pet, owned } = await ownerWithPet();
    await db().update(pets).set({ verificationQuestion: 'What colour is the collar?' }).where(eq(pets.id, pet.id));
    const sent = await report({ publicId: pet.publicId, ...finder, phone: '', answer: 'Red with a bell' });
    expect(sent.body.result).toEqual({ message: messages.foundReportSent });
    expectNothingOf(owned, sent.body);
    const [kept] = await reportsOf(pet.id);
    expect(kept).toMatchObject({ chipId: null, finderPhone: null, question: 'What colour is the collar?', answer: 'Red with a bell' });

    await sendDueMail(db(), createMailer({ from: 'Pet Registry <no-reply@localhost>', outboxDir: ctx.outboxDir }));
    const mail = (await readOutbox(ctx.outboxDir)).find((m) => m.subject === 'Someone found Biscuit' && m.text?.includes('Red with a bell'));
    expect(mail?.to && !Array.isArray(mail.to) && mail.to.text).toBe(owner.input.email);
    expect(mail!.text).toContain('Your question: What colour is the collar?\nTheir answer: Red with a bell');
  });

  it('tells the finder the backup contacts hear of it once one has confirmed their number', async () => {
    const { owner, pet } = await ownerWithPet();
    await db().insert(backupContacts).values({ userId: owner.user.id, name: 'Grandma Rose', phoneNumber: '+13145550177' });
    expect((await report({ publicId: pet.publicId, ...finder })).body.result).toEqual({ message: messages.foundReportSent });
    await db().update(backupContacts).set({ phoneConfirmedAt: new Date() }).where(eq(backupContacts.userId, owner.user.id));
    const sent = await report({ publicId: pet.publicId, ...finder });
    expect(sent.body.result).toEqual({ message: messages.foundReportSentWithBackups });
    expect(JSON.stringify(sent.body)).not.toContain('Rose');
  });

  it('escapes the finder\'s HTML in the e-mail and keeps only the pet\'s name, on one line, in the subject', async () => {
    const { owner, pet } = await ownerWithPet();
    await db().update(pets).set({ name: 'Bis\r\ncuit' }).where(eq(pets.id, pet.id));
    const message = '<script>alert(1)</script> <a href="https://pay.example">pay here</a> & thanks';
    expect((await report({ publicId: pet.publicId, ...finder, name: '<b>Robin</b>', message })).status).toBe(200);
    const [mail] = await mailsTo(owner.input.email);
    expect(mail!.subject).toBe('Someone found Bis cuit');
    expect(mail!.html).not.toMatch(/<script|<a href="https:\/\/pay|<b>Robin/);
    expect(mail!.html).toContain('&#60;script&#62;alert(1)&#60;/script&#62; &#60;a href=&#34;https://pay.example&#34;&#62;pay here&#60;/a&#62; &#38; thanks');
    expect(mail!.html).toContain('&#60;b&#62;Robin&#60;/b&#62;');
  });

  it('texts the owner\'s verified mobile the start of the finder\'s words, unless the owner opted out', async () => {
    const verified = await ownerWithPet({ phoneVerified: true });
    const long = `Found your dog near the river. ${'She is calm and eating well. '.repeat(5)}`;
    await report({ publicId: verified.pet.publicId, ...finder, message: long });
    const [text] = await textsFor(verified.owner.user.id);
    const [kept] = await reportsOf(verified.pet.id);
    expect(text).toMatchObject({ recipient: '+14155550199', kind: 'found-report', status: 'pending' });
    expect(text!.body).toBe(`Biscuit was found. Robin wrote: "${long.trim().slice(0, 100)}…" Open: ${PUBLIC_URL}/client/found-reports/${kept!.id}`);

    const unverified = await ownerWithPet();
    await report({ publicId: unverified.pet.publicId, ...finder });
    expect(await textsFor(unverified.owner.user.id)).toEqual([]);

    // The owner turns texts about found reports off on the profile page.
    const { input, token, user } = verified.owner;
    const profile = { firstName: input.firstName, lastName: input.lastName, email: input.email, phoneNumber: input.phoneNumber, textFoundReports: false };
    const saved = await call<User>(ctx.app, 'PUT', `Users/${user.id}`, { token, body: profile });
    expect(saved.body.result!.data.textFoundReports).toBe(false);
    // A profile form that does not send the switch leaves it as it is.
    const { textFoundReports: _kept, ...withoutSwitch } = profile;
    expect((await call<User>(ctx.app, 'PUT', `Users/${user.id}`, { token, body: withoutSwitch })).body.result!.data.textFoundReports).toBe(false);
    await report({ publicId: verified.pet.publicId, ...finder });
    expect(await textsFor(user.id)).toHaveLength(1);
  });

  it('takes a photo as a pet\'s photo is taken, re-encoded, and refuses a file that is no image', async () => {
    const { pet } = await ownerWithPet();
    expect((await report({ publicId: pet.publicId, ...finder, photo: await pngDataUrl() })).status).toBe(200);
    const [kept] = await reportsOf(pet.id);
    expect(kept!.photo).toMatch(/^[a-f0-9]{32}\.jpg$/);
    expect(existsSync(join(ctx.outboxDir, 'uploads', 'found-report-images', kept!.photo!))).toBe(true);

    const refused = await report({ publicId: pet.publicId, ...finder, photo: `data:image/png;base64,${Buffer.from('not an image').toString('base64')}` });
    expect([refused.status, refused.body.errors]).toEqual([400, [messages.onlyImages]]);
    expect(await reportsOf(pet.id)).toHaveLength(1);
  });
});

describe('what a report refuses', () => {
  it('answers 404 in the lookup\'s words for a chip that is unknown or switched off, and the profile\'s for a removed pet', async () => {
    const { owner, pet, chipId } = await ownerWithPet();
    expect((await report({ chipId: '985000000000002', ...finder })).body.errors).toEqual([messages.lookupNotRegistered]);
    await db().update(chips).set({ isActive: false }).where(eq(chips.petId, pet.id));
    const off = await report({ chipId, ...finder });
    expect([off.status, off.body.errors]).toEqual([404, [messages.lookupNotRegistered]]);
    await db().update(chips).set({ isActive: true }).where(eq(chips.petId, pet.id));
    await db().update(pets).set({ deletedAt: new Date() }).where(eq(pets.id, pet.id));
    const removed = await report({ publicId: pet.publicId, ...finder });
    expect([removed.status, removed.body.errors]).toEqual([404, [messages.notFound]]);
    expect((await report({ chipId, ...finder })).body.errors).toEqual([messages.lookupNotRegistered]);
    expect((await target(`pet=${pet.publicId}`)).status).toBe(404);
    expect(await reportsOf(pet.id)).toEqual([]);
    expect(await mailsTo(owner.input.email)).toEqual([]);
  });

  it('answers each field\'s message and keeps nothing', async () => {
    const { owner, pet } = await ownerWithPet();
    const base = { publicId: pet.publicId, ...finder };
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, messages.contactNameRequired],
      [{ name: 'R'.repeat(101) }, messages.contactNameTooLong],
      [{ name: 'Robin\r\nBcc: x@example.com' }, messages.controlCharacter],
      [{ phone: '', email: '' }, messages.finderContactRequired],
      [{ phone: null, email: null }, messages.finderContactRequired],
      [{ phone: '12' }, messages.contactPhoneInvalid],
      [{ email: 'robin@' }, messages.emailInvalid],
      [{ message: '  ' }, messages.foundMessageRequired],
      [{ message: 'x'.repeat(501) }, messages.foundMessageTooLong],
      [{ message: 'Bell\u0007' }, messages.controlCharacter],
      [{ where: '' }, messages.foundWhereRequired],
      [{ where: 'w'.repeat(201) }, messages.foundWhereTooLong],
      [{ where: 'Main St\nBcc: x' }, messages.controlCharacter],
      [{ answer: 'a'.repeat(201) }, messages.verificationAnswerTooLong],
      [{ publicId: undefined, chipId: '12' }, messages.lookupLength],
      [{ chipId: '985000000000003' }, messages.invalidRequest],
      [{ publicId: undefined }, messages.invalidRequest],
    ];
    for (const [change, message] of cases) {
      const { status, body } = await report({ ...base, ...change });
      expect([status, body.errors], JSON.stringify(change)).toEqual([400, [message]]);
    }
    expect(await reportsOf(pet.id)).toEqual([]);
    expect(await mailsTo(owner.input.email)).toEqual([]);
  });

  it('takes 5 reports an hour from one address', async () => {
    const { pet } = await ownerWithPet();
    for (let i = 0; i < 5; i++) expect((await report({ publicId: pet.publicId, ...finder }, '10.19.0.1')).status).toBe(200);
    const limited = await report({ publicId: pet.publicId, ...finder }, '10.19.0.1');
    expect([limited.status, limited.body]).toEqual([429, { succeeded: false, result: null, errors: [messages.tooManyRequests] }]);
    expect((await report({ publicId: pet.publicId, ...finder }, '10.19.0.2')).status).toBe(200);
    expect(await reportsOf(pet.id)).toHaveLength(6);
  });

  it(`takes ${reportsPerPetPerDay} reports a day about one pet`, async () => {
    const { owner, pet } = await ownerWithPet();
    const row = { petId: pet.id, ownerId: owner.user.id, finderName: 'Someone', message: 'Seen', location: 'Here' };
    await db().insert(foundReports).values({ ...row, createdAt: new Date(Date.now() - 25 * 3_600_000) });
    await db().insert(foundReports).values(Array.from({ length: reportsPerPetPerDay }, () => row));
    const limited = await report({ publicId: pet.publicId, ...finder });
    expect([limited.status, limited.body]).toEqual([429, { succeeded: false, result: null, errors: [messages.foundReportsPerPetExceeded] }]);
    expect(await reportsOf(pet.id)).toHaveLength(reportsPerPetPerDay + 1);
    expect(await mailsTo(owner.input.email)).toEqual([]);
    // A day old, a report no longer counts.
    const [latest] = (await reportsOf(pet.id)).slice(-1);
    await db().update(foundReports).set({ createdAt: new Date(Date.now() - 25 * 3_600_000) }).where(eq(foundReports.id, latest!.id));
    expect((await report({ publicId: pet.publicId, ...finder })).status).toBe(200);
  });

  it('answers a form whose hidden field is filled as if sent, and keeps and sends nothing', async () => {
    const { owner, pet } = await ownerWithPet({ phoneVerified: true });
    const photos = join(ctx.outboxDir, 'uploads', 'found-report-images');
    const stored = () => (existsSync(photos) ? readdirSync(photos).length : 0);
    const before = stored();
    const logged = vi.spyOn(ctx.app.log, 'info');
    const sent = await report({ publicId: pet.publicId, ...finder, photo: await pngDataUrl(), leaveBlank: 'https://spam.example' });
    expect(sent.body).toEqual({ succeeded: true, result: { message: messages.foundReportSent }, errors: [] });
    expect(logged).toHaveBeenCalledWith({ petId: pet.id }, expect.stringContaining('hidden field'));
    logged.mockRestore();
    expect(await reportsOf(pet.id)).toEqual([]);
    expect(await mailsTo(owner.input.email)).toEqual([]);
    expect(await textsFor(owner.user.id)).toEqual([]);
    expect(stored()).toBe(before);
  });

  it('keeps a report whose form a browser filled as it fills a website field: that is not the hidden field', async () => {
    const { owner, pet } = await ownerWithPet();
    expect((await report({ publicId: pet.publicId, ...finder, website: 'https://robin.example' })).status).toBe(200);
    expect(await reportsOf(pet.id)).toHaveLength(1);
    expect(await mailsTo(owner.input.email)).toHaveLength(1);
  });

  it("answers 404 in the lookup's words for a chip whose owner's account is switched off, as the profile's link does", async () => {
    const { owner, pet, chipId } = await ownerWithPet();
    await db().update(users).set({ isActive: false }).where(eq(users.id, owner.user.id));
    for (const answer of [await report({ chipId, ...finder }), await target(`chip=${chipId}`)]) {
      expect([answer.status, answer.body.errors]).toEqual([404, [messages.lookupNotRegistered]]);
    }
    expect((await report({ publicId: pet.publicId, ...finder })).status).toBe(404);
    expect(await reportsOf(pet.id)).toEqual([]);
    expect(await mailsTo(owner.input.email)).toEqual([]);
  });
});

describe('the owner\'s verification question', () => {
  it('is at most 200 characters, and a form that does not send it keeps it', async () => {
    const { owner, pet, chipId } = await ownerWithPet();
    const form = { id: pet.id, name: 'Biscuit', speciesId: pet.speciesId, chipId, confirmChip: chipId, chipTypeId: pet.chips[0]!.chipTypeId };
    const tooLong = await call(ctx.app, 'PUT', 'Pet/pet-profile', { token: owner.token, body: { ...form, verificationQuestion: 'q'.repeat(201) } });
    expect([tooLong.status, tooLong.body.errors]).toEqual([400, [messages.verificationQuestionTooLong]]);
    await call(ctx.app, 'PUT', 'Pet/pet-profile', { token: owner.token, body: { ...form, verificationQuestion: 'What is on the tag?' } });
    expect((await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token: owner.token, body: form })).body.result!.verificationQuestion).toBe('What is on the tag?');
    expect((await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token: owner.token, body: { ...form, verificationQuestion: '' } })).body.result!.verificationQuestion).toBeNull();
  });
});
