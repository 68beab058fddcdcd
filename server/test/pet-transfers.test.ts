import {
  messages,
  type AcceptedPetTransfer,
  type AdminPet,
  type AuthResult,
  type Pet,
  type PetTransferOffer,
  type PetTransfers,
  type PublicProfile,
  type Site,
} from '@petreg/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../src/adapters/mail/index.js';
import { auditLog, chips, petTransfers, pets, sitePets, sites, users } from '../src/db/schema.js';
import { expirePetTransfers } from '../src/modules/pets/transferExpiry.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { sendDueMail } from '../src/worker/outbox.js';
import { alertKit } from './alertKit.js';
import { call, confirmSignUpEmail, createTestApp, readOutbox, registerPet, signUpOwner, uniqueEmail, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: AuthResult;
beforeAll(async () => {
  ctx = await createTestApp();
  await ensureAdministrator(ctx.database.db, { email: 'root@example.com', password: 'Admin#Pass1' });
  admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
});
afterAll(() => ctx.close());

const db = () => ctx.database.db;
const { siteNear, sendAlert, ownerWithLostPet } = alertKit(() => ctx);

/** The e-mails the worker wrote as files to the address, oldest first: [subject, text]. */
async function mailsTo(email: string) {
  const mailer = createMailer({ from: 'Pet Registry <registry@example.com>', outboxDir: ctx.outboxDir });
  while ((await sendDueMail(db(), mailer)) > 0);
  const mails = await readOutbox(ctx.outboxDir);
  return mails
    .filter((m) => (Array.isArray(m.to) ? m.to[0] : m.to)?.text.toLowerCase() === email.toLowerCase())
    .map((m) => ({ subject: m.subject!, text: m.text! }));
}
const subjectsTo = async (email: string) => (await mailsTo(email)).map((m) => m.subject);

/** An owner (first name Jamie) with a registered pet, chip active on a lifetime plan. */
async function ownerWithPet() {
  const owner = await signUpOwner(ctx.app);
  const pet = await registerPet(ctx.app, owner.token);
  await db().update(pets).set({ isActive: true }).where(eq(pets.id, pet.id));
  await db().update(chips).set({ isActive: true, oneTime: true }).where(eq(chips.petId, pet.id));
  return { owner, pet };
}

/** An account that proved its address by the sign-up's link: only such an account answers the offers made to it. */
async function provenAccount(overrides: Parameters<typeof signUpOwner>[1] = {}) {
  const account = await signUpOwner(ctx.app, overrides);
  await confirmSignUpEmail(ctx, account.input.email);
  return account;
}

const offer = (token: string, petId: number, email: string, ip?: string) => call<{ message: string }>(ctx.app, 'POST', `Pet/${petId}/transfer`, { token, body: { email }, ip });
const list = async (token: string) => (await call<PetTransfers>(ctx.app, 'GET', 'Pet/transfers', { token })).body.result!;
const theirPets = async (token: string) => (await call<Pet[]>(ctx.app, 'GET', 'pet/user-pets', { token })).body.result!;

/** The code of the newest offer link mailed to the address. */
async function linkToken(email: string) {
  const offerMail = (await mailsTo(email)).filter((m) => m.subject.includes('wants to transfer')).at(-1)!;
  const link = new URL(/https?:\/\/\S+/.exec(offerMail.text)![0]);
  expect(link.pathname).toBe('/pet-transfer');
  return link.searchParams.get('token')!;
}

describe('offering a pet', () => {
  it('mails the new owner an invitation naming the pet and the owner, tells the owner, and lists the offer both ways', async () => {
    const { owner, pet } = await ownerWithPet();
    const next = await provenAccount({ firstName: 'Robin' });
    const started = await offer(owner.token, pet.id, next.input.email.toUpperCase());
    expect(started.status, started.body.errors.join()).toBe(200);
    expect(started.body.result).toEqual({ message: messages.transferOffered });

    const [invitation] = (await mailsTo(next.input.email)).filter((m) => m.subject.includes('transfer'));
    expect(invitation!.subject).toBe('Jamie wants to transfer Biscuit to you');
    expect(invitation!.text).toContain("Jamie asked our pet registry to transfer Biscuit's registration, microchip and protection to you. Open this link within 7 days");
    // Only the owner's first name: the addressee learns nothing else of them.
    expect(invitation!.text).not.toContain(owner.input.lastName);
    expect(await subjectsTo(owner.input.email)).toContain(`You offered Biscuit to ${next.input.email.toUpperCase()}`);

    const mine = await list(owner.token);
    expect(mine.outgoing).toEqual([expect.objectContaining({ petId: pet.id, petName: 'Biscuit', toEmail: next.input.email.toUpperCase() })]);
    expect(mine.incoming).toEqual([]);
    const theirs = await list(next.token);
    expect(theirs.incoming).toEqual([expect.objectContaining({ petId: pet.id, petName: 'Biscuit', fromFirstName: 'Jamie', species: expect.any(String) })]);
    expect(Date.parse(theirs.incoming[0]!.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);
    // A stranger sees neither side.
    const stranger = await provenAccount();
    expect(await list(stranger.token)).toEqual({ outgoing: [], incoming: [] });
    // The pet stays the owner's until the offer is accepted.
    expect(await theirPets(owner.token)).toHaveLength(1);
  });

  it("answers 404 for another owner's pet (and 401 without sign-in), mailing nobody", async () => {
    const { pet } = await ownerWithPet();
    const stranger = await provenAccount();
    const email = uniqueEmail();
    const refused = await offer(stranger.token, pet.id, email);
    expect(refused.status).toBe(404);
    expect(refused.body.errors).toEqual([messages.notFound]);
    expect((await call(ctx.app, 'POST', `Pet/${pet.id}/transfer`, { body: { email } })).status).toBe(401);
    expect(await mailsTo(email)).toEqual([]);
    expect(await db().$count(petTransfers, eq(petTransfers.petId, pet.id))).toBe(0);
  });

  it("refuses the owner's own address, an administrator's or a disabled account, a second open offer, and a bad e-mail", async () => {
    const { owner, pet } = await ownerWithPet();
    const disabled = await signUpOwner(ctx.app);
    await db().update(users).set({ isActive: false }).where(eq(users.id, disabled.user.id));
    for (const [status, email, message] of [
      [409, ` ${owner.input.email.toUpperCase()} `, messages.transferToSelf],
      [409, 'ROOT@example.com', messages.transferAddresseeRefused],
      [409, disabled.input.email, messages.transferAddresseeRefused],
      [400, 'nobody', messages.emailInvalid],
    ] as const) {
      const answer = await offer(owner.token, pet.id, email);
      expect(answer.status, email).toBe(status);
      expect(answer.body.errors).toEqual([message]);
    }
    expect((await offer(owner.token, pet.id, uniqueEmail())).status).toBe(200);
    const second = await offer(owner.token, pet.id, uniqueEmail());
    expect(second.status).toBe(409);
    expect(second.body.errors).toEqual([messages.transferAlreadyOpen]);
  });

  it('holds an owner to 10 offers an hour', async () => {
    const owner = await signUpOwner(ctx.app);
    const pet = await registerPet(ctx.app, owner.token);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const answer = await offer(owner.token, pet.id, uniqueEmail(), '203.0.113.40');
      statuses.push(answer.status);
      if (answer.status === 200) await call(ctx.app, 'POST', `Pet/transfers/${(await list(owner.token)).outgoing[0]!.id}/cancel`, { token: owner.token });
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('accepting', () => {
  it('an account that has not proved its address neither sees, accepts nor declines the offers made to it', async () => {
    const { owner, pet } = await ownerWithPet();
    // Signed up with the address the offer names, without following the sign-up's link.
    const squatter = await signUpOwner(ctx.app);
    expect((await offer(owner.token, pet.id, squatter.input.email)).status).toBe(200);
    expect((await list(squatter.token)).incoming).toEqual([]);
    const [open] = (await list(owner.token)).outgoing;
    for (const action of ['accept', 'decline']) {
      const refused = await call(ctx.app, 'POST', `Pet/transfers/${open!.id}/${action}`, { token: squatter.token, body: { shareContactInfo: false } });
      expect([refused.status, refused.body.errors]).toEqual([403, [messages.transferConfirmEmailFirst]]);
    }
    expect(await theirPets(squatter.token)).toEqual([]);
    // Once the address is proven, the offer is theirs to answer.
    await confirmSignUpEmail(ctx, squatter.input.email);
    expect((await list(squatter.token)).incoming).toEqual([expect.objectContaining({ id: open!.id })]);
  });

  async function linkVet(petId: number) {
    const [site] = await db().insert(sites).values({ name: 'Old Vet', source: 'admin', phoneNumber: '+13145550142' }).returning();
    await db().insert(sitePets).values({ siteId: site!.id, petId });
  }

  it('moves the pet, its chips and cover to the signed-in addressee; vets and backup contacts stay; the old owner loses access at once', async () => {
    const { owner, pet } = await ownerWithPet();
    await linkVet(pet.id);
    await call(ctx.app, 'POST', 'Users/backup-contact', { token: owner.token, body: { name: 'Casey Rivera', phoneNumber: '(314) 555-0177' } });
    await db().update(pets).set({ shareContactInfo: true, verificationQuestion: 'What colour is the collar?' }).where(eq(pets.id, pet.id));
    const next = await provenAccount({ firstName: 'Robin', lastName: 'Hale', phoneNumber: '(314) 555-0188' });
    await offer(owner.token, pet.id, next.input.email);
    const [incoming] = (await list(next.token)).incoming;

    const accepted = await call<AcceptedPetTransfer>(ctx.app, 'POST', `Pet/transfers/${incoming!.id}/accept`, { token: next.token, body: { shareContactInfo: false } });
    expect(accepted.status, accepted.body.errors.join()).toBe(200);
    expect(accepted.body.result).toEqual({ message: messages.transferAccepted, petId: pet.id, setPasswordPath: null });

    expect(await theirPets(owner.token)).toEqual([]);
    expect((await call(ctx.app, 'GET', `Pet/${pet.id}`, { token: owner.token })).status).toBe(403);
    const theirs = await theirPets(next.token);
    expect(theirs).toEqual([expect.objectContaining({ id: pet.id, isActive: true, microchip1: pet.microchip1, isChipActive: true, shareContactInfo: false })]);
    expect(theirs[0]!.chips[0]).toMatchObject({ oneTime: true, isActive: true });
    // The previous owner's question to finders does not follow the pet: the new owner sets their own.
    const [moved] = await db().select({ question: pets.verificationQuestion }).from(pets).where(eq(pets.id, pet.id));
    expect(moved!.question).toBeNull();
    // The old owner's vet is theirs: its link to the pet ends.
    expect((await call<Site[]>(ctx.app, 'GET', `site/sites-for-pet/${pet.id}`, { token: next.token })).body.result).toEqual([]);
    // The public profile names the new owner; the old owner's vet and backup contact are not offered.
    await db().update(pets).set({ missingDate: new Date() }).where(eq(pets.id, pet.id));
    const profile = (await call<PublicProfile>(ctx.app, 'GET', `pet/pet-profiles/${theirs[0]!.publicId}`)).body.result!;
    expect(profile.pet).toMatchObject({ firstName: 'Robin', shareContactInfo: false, phone: null, backupContacts: [] });
    expect(profile.sites).toEqual([]);
    expect(await list(owner.token)).toEqual({ outgoing: [], incoming: [] });

    expect(await subjectsTo(owner.input.email)).toContain('Biscuit now belongs to its new owner');
    expect((await mailsTo(next.input.email)).find((m) => m.subject === 'Biscuit is now registered to you')!.text).toMatch(/^Hi Robin,\n\nYou accepted Jamie's transfer/);
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.entity, 'pet'), eq(auditLog.entityId, String(pet.id))));
    expect(audit).toMatchObject({ action: 'transfer-accepted', actorUserId: next.user.id, before: { userId: owner.user.id } });

    // Accepting twice changes nothing more.
    const again = await call(ctx.app, 'POST', `Pet/transfers/${incoming!.id}/accept`, { token: next.token, body: {} });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([messages.transferNotOpen]);
  });

  it("the new owner's choice to share their phone shows on the lost pet's public profile", async () => {
    const { owner, pet } = await ownerWithPet();
    const next = await provenAccount({ phoneNumber: '(314) 555-0155' });
    await offer(owner.token, pet.id, next.input.email);
    const accepted = await call<AcceptedPetTransfer>(ctx.app, 'POST', 'public/pet-transfer/accept', { body: { token: await linkToken(next.input.email), shareContactInfo: true } });
    // The address has an account: the link alone does not act for it.
    expect(accepted.status).toBe(403);
    expect(accepted.body.errors).toEqual([messages.transferSignInToAccept]);
    const [incoming] = (await list(next.token)).incoming;
    expect((await call(ctx.app, 'POST', `Pet/transfers/${incoming!.id}/accept`, { token: next.token, body: { shareContactInfo: true } })).status).toBe(200);
    const [theirs] = await theirPets(next.token);
    expect(theirs).toMatchObject({ shareContactInfo: true });
    await db().update(pets).set({ missingDate: new Date() }).where(eq(pets.id, pet.id));
    const profile = (await call<PublicProfile>(ctx.app, 'GET', `pet/pet-profiles/${theirs!.publicId}`)).body.result!;
    expect(profile.pet).toMatchObject({ shareContactInfo: true, phone: '+13145550155' });
  });

  it('opens an account for an address with none, from the mailed link, and answers its set-password page asking names and phone', async () => {
    const { owner, pet } = await ownerWithPet();
    const email = uniqueEmail();
    await offer(owner.token, pet.id, email);
    const token = await linkToken(email);
    const page = await call<PetTransferOffer>(ctx.app, 'GET', `public/pet-transfer?token=${token}`);
    expect(page.body.result).toEqual({ petName: 'Biscuit', fromFirstName: 'Jamie', toEmail: email, expiresAt: expect.any(String), hasAccount: false });

    const accepted = await call<AcceptedPetTransfer>(ctx.app, 'POST', 'public/pet-transfer/accept', { body: { token } });
    expect(accepted.status, accepted.body.errors.join()).toBe(200);
    const setPassword = new URL(accepted.body.result!.setPasswordPath!, 'http://localhost');
    expect(setPassword.pathname).toBe('/reset-password');
    expect(setPassword.searchParams.get('invitation')).toBe('1');
    const credentials = { email: setPassword.searchParams.get('email'), token: setPassword.searchParams.get('code'), password: 'Welcome#123' };
    const refused = await call(ctx.app, 'POST', 'Users/set-password-by-token', { body: credentials });
    expect(refused.body.errors).toEqual([messages.invitationDetailsRequired]);
    const set = await call(ctx.app, 'POST', 'Users/set-password-by-token', { body: { ...credentials, firstName: 'Robin', lastName: 'Hale', phoneNumber: '(314) 555-0188' } });
    expect(set.status, set.body.errors.join()).toBe(200);
    const signIn = await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email, password: 'Welcome#123' } });
    expect(await theirPets(signIn.body.result!.token)).toEqual([expect.objectContaining({ id: pet.id })]);
    expect(await theirPets(owner.token)).toEqual([]);
    expect(await subjectsTo(email)).toContain('Biscuit is now registered to you');
    // The link is spent.
    expect((await call(ctx.app, 'GET', `public/pet-transfer?token=${token}`)).status).toBe(404);
    expect((await call(ctx.app, 'POST', 'public/pet-transfer/accept', { body: { token } })).status).toBe(409);
  });

  it("refuses a stranger accepting someone else's offer, by its id or its link", async () => {
    const { owner, pet } = await ownerWithPet();
    const next = await provenAccount();
    const stranger = await provenAccount();
    await offer(owner.token, pet.id, next.input.email);
    const [incoming] = (await list(next.token)).incoming;
    for (const path of [`Pet/transfers/${incoming!.id}/accept`, `Pet/transfers/${incoming!.id}/decline`, `Pet/transfers/${incoming!.id}/cancel`]) {
      const refused = await call(ctx.app, 'POST', path, { token: stranger.token, body: {} });
      expect(refused.status, path).toBe(404);
      expect(refused.body.errors).toEqual([messages.transferNotOpen]);
    }
    const byLink = await call(ctx.app, 'POST', 'public/pet-transfer/accept', { token: stranger.token, body: { token: await linkToken(next.input.email) } });
    expect(byLink.status).toBe(403);
    expect((await call(ctx.app, 'POST', 'public/pet-transfer/accept', { body: { token: 'not-a-code' } })).status).toBe(404);
    expect(await theirPets(owner.token)).toHaveLength(1);
    expect(await theirPets(stranger.token)).toEqual([]);
    expect((await list(next.token)).incoming).toHaveLength(1);
  });
});

describe('cancel, decline and expiry', () => {
  it('the owner cancels: both are told, the offer is gone and the pet stays', async () => {
    const { owner, pet } = await ownerWithPet();
    const next = await provenAccount();
    await offer(owner.token, pet.id, next.input.email);
    const token = await linkToken(next.input.email);
    const [outgoing] = (await list(owner.token)).outgoing;
    const canceled = await call(ctx.app, 'POST', `Pet/transfers/${outgoing!.id}/cancel`, { token: owner.token });
    expect(canceled.status).toBe(200);
    expect(canceled.body.result).toEqual({ message: messages.transferCanceled });
    expect(await subjectsTo(owner.input.email)).toContain('You cancelled the transfer of Biscuit');
    expect(await subjectsTo(next.input.email)).toContain('Jamie cancelled the transfer of Biscuit');
    expect((await list(next.token)).incoming).toEqual([]);
    expect((await call(ctx.app, 'POST', `Pet/transfers/${outgoing!.id}/accept`, { token: next.token, body: {} })).status).toBe(409);
    expect((await call(ctx.app, 'GET', `public/pet-transfer?token=${token}`)).status).toBe(404);
    expect(await theirPets(owner.token)).toHaveLength(1);
  });

  it('the addressee declines, signed in or from the link: both are told', async () => {
    for (const way of ['dashboard', 'link'] as const) {
      const { owner, pet } = await ownerWithPet();
      const next = await provenAccount();
      await offer(owner.token, pet.id, next.input.email);
      const declined =
        way === 'dashboard'
          ? await call(ctx.app, 'POST', `Pet/transfers/${(await list(next.token)).incoming[0]!.id}/decline`, { token: next.token })
          : await call(ctx.app, 'POST', 'public/pet-transfer/decline', { body: { token: await linkToken(next.input.email) } });
      expect(declined.status, way).toBe(200);
      expect(declined.body.result).toEqual({ message: messages.transferDeclined });
      expect(await subjectsTo(owner.input.email)).toContain(`${next.input.email} declined Biscuit's transfer`);
      expect(await subjectsTo(next.input.email)).toContain("You declined Biscuit's transfer");
      expect(await list(owner.token)).toEqual({ outgoing: [], incoming: [] });
      expect(await theirPets(owner.token)).toHaveLength(1);
    }
  });

  it('expires after 7 days on the worker’s clock: both are told, and it can no longer be accepted', async () => {
    const { owner, pet } = await ownerWithPet();
    const next = await provenAccount();
    await offer(owner.token, pet.id, next.input.email);
    const [incoming] = (await list(next.token)).incoming;
    expect(await expirePetTransfers(db(), new Date(Date.now() + 6 * 24 * 3600_000))).toBe(0);
    expect(await expirePetTransfers(db(), new Date(Date.now() + 7 * 24 * 3600_000 + 60_000))).toBeGreaterThanOrEqual(1);
    const [row] = await db().select().from(petTransfers).where(eq(petTransfers.id, incoming!.id));
    expect(row!.status).toBe('expired');
    expect(await subjectsTo(owner.input.email)).toContain('The transfer of Biscuit expired');
    expect(await subjectsTo(next.input.email)).toContain("Jamie's transfer of Biscuit expired");
    const late = await call(ctx.app, 'POST', `Pet/transfers/${incoming!.id}/accept`, { token: next.token, body: {} });
    expect(late.status).toBe(409);
    expect(late.body.errors).toEqual([messages.transferNotOpen]);
    // Told once: a second sweep finds nothing.
    expect(await expirePetTransfers(db(), new Date(Date.now() + 8 * 24 * 3600_000))).toBe(0);
    // The owner may offer the pet again.
    expect((await offer(owner.token, pet.id, next.input.email)).status).toBe(200);
  });
});

describe('holds', () => {
  it('refuses an offer while the pet has an open lost pet alert, and an acceptance while one opened meanwhile', async () => {
    await siteNear('63101', 5);
    const { token, pet } = await ownerWithLostPet();
    const owner = { token };
    const next = await provenAccount();
    await offer(owner.token, pet.id, next.input.email);
    const alert = await sendAlert(owner.token, pet.id);
    expect(alert.status, alert.body.errors.join()).toBe(200);
    const [incoming] = (await list(next.token)).incoming;
    const refused = await call(ctx.app, 'POST', `Pet/transfers/${incoming!.id}/accept`, { token: next.token, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([messages.transferHeldByAlert]);
    expect(await theirPets(owner.token)).toHaveLength(1);

    await call(ctx.app, 'POST', `Pet/transfers/${incoming!.id}/cancel`, { token: owner.token });
    const held = await offer(owner.token, pet.id, next.input.email);
    expect(held.status).toBe(409);
    expect(held.body.errors).toEqual([messages.transferHeldByAlert]);
  });

  it("an administrator's dispute hold, shown on the record with who, when and why, holds the owner's transfer; the admin transfer warns", async () => {
    const { owner, pet } = await ownerWithPet();
    const next = await provenAccount();
    await offer(owner.token, pet.id, next.input.email);
    const [incoming] = (await list(next.token)).incoming;

    expect((await call(ctx.app, 'PUT', `admin/pet-hold/${pet.id}`, { token: owner.token, body: { reason: 'x' } })).status).toBe(403);
    const empty = await call(ctx.app, 'PUT', `admin/pet-hold/${pet.id}`, { token: admin.token, body: { reason: '  ' } });
    expect(empty.body.errors).toEqual([messages.transferHoldReasonRequired]);
    const set = await call(ctx.app, 'PUT', `admin/pet-hold/${pet.id}`, { token: admin.token, body: { reason: 'Ownership disputed by a former partner' } });
    expect(set.status).toBe(200);
    expect(set.body.result).toEqual({ message: messages.transferHoldSet });
    const record = (await call<AdminPet>(ctx.app, 'GET', `admin/user-pet/${pet.id}`, { token: admin.token })).body.result!;
    expect(record.transferHold).toEqual({ reason: 'Ownership disputed by a former partner', at: expect.any(String), by: expect.any(String) });
    expect(record.transferHold!.by).not.toBe('');

    const refused = await call(ctx.app, 'POST', `Pet/transfers/${incoming!.id}/accept`, { token: next.token, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([messages.transferHeldByDispute]);
    await call(ctx.app, 'POST', `Pet/transfers/${incoming!.id}/cancel`, { token: owner.token });
    const held = await offer(owner.token, pet.id, next.input.email);
    expect(held.body.errors).toEqual([messages.transferHeldByDispute]);

    // The administrator's own transfer still works, once the hold's warning is confirmed.
    const warned = await call(ctx.app, 'POST', `admin/transfer-pet/${pet.id}`, { token: admin.token, body: { Email: next.input.email } });
    expect(warned.status).toBe(409);
    expect(warned.body.errors).toEqual([messages.adminTransferHeld]);
    const moved = await call(ctx.app, 'POST', `admin/transfer-pet/${pet.id}`, { token: admin.token, body: { Email: next.input.email, confirmHold: true } });
    expect(moved.status, moved.body.errors.join()).toBe(200);

    const lifted = await call(ctx.app, 'DELETE', `admin/pet-hold/${pet.id}`, { token: admin.token });
    expect(lifted.body.result).toEqual({ message: messages.transferHoldLifted });
    expect((await call<AdminPet>(ctx.app, 'GET', `admin/user-pet/${pet.id}`, { token: admin.token })).body.result!.transferHold).toBeNull();
    const actions = await db().select({ action: auditLog.action }).from(auditLog).where(and(eq(auditLog.entity, 'pet'), eq(auditLog.entityId, String(pet.id))));
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['transfer-hold-set', 'transfer', 'transfer-hold-lifted']));
  });

  it("an administrator's transfer ends an open offer, its addressee told", async () => {
    const { owner, pet } = await ownerWithPet();
    const addressee = uniqueEmail();
    await offer(owner.token, pet.id, addressee);
    const next = await provenAccount();
    expect((await call(ctx.app, 'POST', `admin/transfer-pet/${pet.id}`, { token: admin.token, body: { Email: next.input.email } })).status).toBe(200);
    expect(await subjectsTo(addressee)).toContain('Jamie cancelled the transfer of Biscuit');
    expect((await call(ctx.app, 'GET', `public/pet-transfer?token=${await linkToken(addressee)}`)).status).toBe(404);
  });
});
