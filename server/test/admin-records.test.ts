import {
  messages,
  type AdminPet,
  type AdminPetSupport,
  type AdminUser,
  type AuthResult,
  type MicrochipLookup,
  type Pet,
  type PetTransfer,
  type Site,
  type StaticData,
} from '@petreg/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertEmails, auditLog, checkoutSessions, chips, mailOutbox, pets, sitePets, sites, userSessions, users } from '../src/db/schema.js';
import type { Mailer } from '../src/adapters/mail/index.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { sendDueAlertEmails } from '../src/worker/alertEmails.js';
import { alertKit, alertMailSettings } from './alertKit.js';
import { call, createTestApp, registerPet, signUpOwner, uniqueChip, uniqueEmail, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: AuthResult;
let data: StaticData;
beforeAll(async () => {
  ctx = await createTestApp();
  await ensureAdministrator(ctx.database.db, { email: 'root@example.com', password: 'Admin#Pass1' });
  admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
  data = (await call<StaticData>(ctx.app, 'GET', 'utilities/static-data')).body.result!;
});
afterAll(() => ctx.close());

const db = () => ctx.database.db;
const { ownerWithLostPet, siteNear, sendAndPay } = alertKit(() => ctx);
const auditOf = (entity: string, id: number) =>
  db().select().from(auditLog).where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, String(id))));
const mailTo = (email: string) => db().select().from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(mailOutbox.id);

/** An owner with a registered (chip active, lifetime) pet. */
async function ownerWithPet() {
  const owner = await signUpOwner(ctx.app);
  const pet = await registerPet(ctx.app, owner.token);
  await db().update(pets).set({ isActive: true }).where(eq(pets.id, pet.id));
  await db().update(chips).set({ isActive: true, oneTime: true }).where(eq(chips.petId, pet.id));
  return { owner, pet };
}

/** An owner whose pet is covered by a yearly plan paid on the portal's own checkout, renewing. */
async function ownerWithYearlyPlan() {
  const owner = await signUpOwner(ctx.app);
  const pet = await registerPet(ctx.app, owner.token);
  const plans = (await call<{ plans: { id: number; oneTime: boolean }[] }>(ctx.app, 'GET', 'pet/plans')).body.result!.plans;
  await call(ctx.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: pet.id, planId: plans.find((p) => !p.oneTime)!.id } });
  const started = await call<{ location: string }>(ctx.app, 'GET', `checkout/stripe-subscription/${pet.id}?petFlow=false&isTagSelected=false`, {
    token: owner.token,
  });
  const sessionId = started.body.result!.location.split('/checkout/')[1]!;
  const paid = await call(ctx.app, 'POST', `checkout/local/${sessionId}/pay`, {
    token: owner.token,
    body: { name: 'Jamie Rivera', cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' },
  });
  expect(paid.status, paid.body.errors.join()).toBe(200);
  const renewal = async () => (await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId)))[0]!.subscriptionStatus;
  expect(await renewal()).toBe('active');
  return { owner, pet, renewal };
}

const userCard = (email: string, overrides: Record<string, unknown> = {}) => ({
  firstName: 'Avery',
  lastName: 'Stone',
  email,
  phoneNumber: '(314) 555-0199',
  address1: '1 Main St',
  address2: '',
  city: 'Saint Louis',
  stateId: null,
  zipcode: '63101',
  notifyByEmail: true,
  notifyBySms: false,
  isActive: true,
  ...overrides,
});

const petCard = (pet: Pet, overrides: Record<string, unknown> = {}) => ({
  id: pet.id,
  name: 'Biscuit II',
  speciesId: pet.speciesId,
  breeds: [],
  sex: 1,
  dob: '2020-05-01',
  lastRabiesVaccine: null,
  approximateWeight: 42,
  spayedNeutered: true,
  notes: 'Friendly',
  image: pet.image,
  microchip1: pet.microchip1,
  isChipActive: true,
  isActive: true,
  ...overrides,
});

describe('who may call', () => {
  it('answers 401 to a guest, 403 to an owner and 200 to the administrator, on every call', async () => {
    const { owner, pet } = await ownerWithPet();
    const calls: [string, string, unknown?][] = [
      ['GET', `admin/pet-user/${owner.user.id}`],
      ['PUT', `admin/update-user/${owner.user.id}`, userCard(owner.input.email)],
      ['GET', `admin/user-pet/${pet.id}`],
      ['PUT', `admin/update-pet/${pet.id}`, petCard(pet)],
      ['POST', `admin/transfer-pet/${pet.id}`, { Email: uniqueEmail() }],
      ['GET', `admin/remove-pet/${pet.id}`],
    ];
    for (const [method, path, body] of calls) {
      expect((await call(ctx.app, method as 'GET', path, { body })).status, `${method} ${path} as a guest`).toBe(401);
      const asOwner = await call(ctx.app, method as 'GET', path, { body, token: owner.token });
      expect(asOwner.status, `${method} ${path} as the owner`).toBe(403);
      expect(asOwner.body.errors).toEqual([messages.forbidden]);
    }
    // Nothing changed for the owner's own records.
    const own = await call<Pet>(ctx.app, 'GET', `Pet/${pet.id}`, { token: owner.token });
    expect(own.body.result).toMatchObject({ name: 'Biscuit', isActive: true });
    for (const [method, path, body] of calls) {
      const asAdmin = await call(ctx.app, method as 'GET', path, { body, token: admin.token });
      expect(asAdmin.status, `${method} ${path} as the administrator: ${asAdmin.body.errors.join()}`).toBe(200);
    }
  });

  it('answers 404 for unknown records and 400 for ids that are no ids', async () => {
    for (const [method, path, body] of [
      ['GET', 'admin/pet-user/999999'],
      ['PUT', 'admin/update-user/999999', userCard(uniqueEmail())],
      ['GET', 'admin/user-pet/999999'],
      ['PUT', 'admin/update-pet/999999', { ...petCard({ id: 999999, speciesId: data.species[0]!.id, image: null, microchip1: null } as unknown as Pet) }],
      ['POST', 'admin/transfer-pet/999999', { Email: uniqueEmail() }],
      ['GET', 'admin/remove-pet/999999'],
    ] as const) {
      const answer = await call(ctx.app, method, path, { body, token: admin.token });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.errors).toEqual([messages.notFound]);
    }
    expect((await call(ctx.app, 'GET', 'admin/user-pet/abc', { token: admin.token })).status).toBe(400);
  });
});

describe('the owner card', () => {
  it('reads the profile/admin view of the user', async () => {
    const { owner } = await ownerWithPet();
    const { status, body } = await call<AdminUser>(ctx.app, 'GET', `admin/pet-user/${owner.user.id}`, { token: admin.token });
    expect(status).toBe(200);
    expect(body.result).toMatchObject({ id: owner.user.id, data: { email: owner.input.email, isActive: true, paymentCustomerId: null } });
    expect(body.result!.data.createDate).toBeTruthy();
  });

  it('saves the user, with result.id, and records the change in the audit log', async () => {
    const { owner } = await ownerWithPet();
    await ctx.database.db.update(users).set({ phoneVerifiedAt: new Date() }).where(eq(users.id, owner.user.id));
    const { status, body } = await call<AdminUser>(ctx.app, 'PUT', `admin/update-user/${owner.user.id}`, {
      token: admin.token,
      body: userCard(owner.input.email),
    });
    expect(status, body.errors.join()).toBe(200);
    expect(body.result).toMatchObject({ id: owner.user.id, data: { firstName: 'Avery', lastName: 'Stone', phoneNumber: '+13145550199', city: 'Saint Louis' } });
    // A number told to an administrator is not proven: the owner verifies it with a texted code.
    const [changed] = await ctx.database.db.select({ phoneVerifiedAt: users.phoneVerifiedAt }).from(users).where(eq(users.id, owner.user.id));
    expect(changed!.phoneVerifiedAt).toBeNull();
    const [audit] = await auditOf('user', owner.user.id);
    expect(audit).toMatchObject({ action: 'update', actorUserId: admin.user.id });
    expect(JSON.stringify(audit!.before)).not.toContain('passwordHash');
    // The owner sees the change.
    expect((await call<AdminUser>(ctx.app, 'GET', 'Users/current-user', { token: owner.token })).body.result!.data.firstName).toBe('Avery');
  });

  it('changes the e-mail outright and tells the old address; a taken e-mail is refused', async () => {
    const { owner } = await ownerWithPet();
    await ctx.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, owner.user.id));
    const other = await signUpOwner(ctx.app);
    const taken = await call(ctx.app, 'PUT', `admin/update-user/${owner.user.id}`, { token: admin.token, body: userCard(other.input.email) });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual([messages.emailTaken]);

    const newEmail = uniqueEmail();
    const moved = await call<AdminUser>(ctx.app, 'PUT', `admin/update-user/${owner.user.id}`, { token: admin.token, body: userCard(newEmail) });
    expect(moved.body.result!.data.email).toBe(newEmail);
    // The new address was only told on the phone: it is not proven until a link mailed to it is followed.
    expect((await ctx.database.db.select().from(users).where(eq(users.id, owner.user.id)))[0]!.emailVerifiedAt).toBeNull();
    const notices = await mailTo(owner.input.email);
    expect(notices.map((m) => m.subject)).toContain('Your email address was changed');
    const signIn = await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: newEmail, password: owner.input.password } });
    expect(signIn.status).toBe(200);
  });

  it('switching the account off ends its sessions at once', async () => {
    const { owner } = await ownerWithPet();
    const off = await call<AdminUser>(ctx.app, 'PUT', `admin/update-user/${owner.user.id}`, {
      token: admin.token,
      body: userCard(owner.input.email, { isActive: false }),
    });
    expect(off.body.result!.data.isActive).toBe(false);
    expect((await call(ctx.app, 'GET', 'pet/user-pets', { token: owner.token })).status).toBe(401);
    const open = await db().select().from(userSessions).where(and(eq(userSessions.userId, owner.user.id), isNull(userSessions.revokedAt)));
    expect(open).toHaveLength(0);
  });

  it('refuses to switch off the administrator\'s own account', async () => {
    const answer = await call(ctx.app, 'PUT', `admin/update-user/${admin.user.id}`, {
      token: admin.token,
      body: userCard('root@example.com', { isActive: false }),
    });
    expect(answer.status).toBe(409);
    expect(answer.body.errors).toEqual([messages.ownAccountDisable]);
    expect((await call<AdminUser>(ctx.app, 'GET', `admin/pet-user/${admin.user.id}`, { token: admin.token })).body.result!.data.isActive).toBe(true);
  });

  it("refuses to change another administrator's e-mail or switch them off, and its own e-mail here", async () => {
    const colleague = await signUpOwner(ctx.app);
    const [second] = await db().update(users).set({ roles: ['customer', 'admin'] }).where(eq(users.id, colleague.user.id)).returning();
    for (const [userId, card] of [
      [second!.id, userCard('thief@example.com')],
      [second!.id, userCard(second!.email, { isActive: false })],
      [admin.user.id, userCard('elsewhere@example.com')],
    ] as const) {
      const answer = await call(ctx.app, 'PUT', `admin/update-user/${userId}`, { token: admin.token, body: card });
      expect([answer.status, answer.body.errors]).toEqual([409, [messages.administratorAccountProtected]]);
    }
    const [unchanged] = await db().select().from(users).where(eq(users.id, second!.id));
    expect(unchanged).toMatchObject({ email: second!.email, isActive: true });
  });

  it('refuses bad input with the field message and changes nothing', async () => {
    const { owner } = await ownerWithPet();
    for (const [body, message] of [
      [userCard(owner.input.email, { firstName: 'A' }), messages.firstNameMin],
      [userCard(owner.input.email, { lastName: '' }), messages.lastNameRequired],
      [userCard('not-an-email'), messages.emailInvalid],
      [userCard(''), messages.emailRequired],
      [userCard(owner.input.email, { isActive: 'yes' }), messages.invalidChoice],
    ] as const) {
      const answer = await call(ctx.app, 'PUT', `admin/update-user/${owner.user.id}`, { token: admin.token, body });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([message]);
    }
    const [row] = await db().select().from(users).where(eq(users.id, owner.user.id));
    expect(row).toMatchObject({ firstName: 'Jamie', email: owner.input.email });
    expect(await auditOf('user', owner.user.id)).toHaveLength(0);
  });
});

describe('the pet card', () => {
  it('reads the pet with its chips, first chip, chip switch, plan, enabled switch and owner id', async () => {
    const { owner, pet } = await ownerWithPet();
    const { status, body } = await call<AdminPet>(ctx.app, 'GET', `admin/user-pet/${pet.id}`, { token: admin.token });
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      id: pet.id,
      userId: owner.user.id,
      microchip1: pet.microchip1,
      isChipActive: true,
      isActive: true,
      plan: null,
      chips: [{ chipId: pet.microchip1, isActive: true, oneTime: true }],
    });
  });

  it('saves the pet and both switches, with result.id, audited; the owner sees the change', async () => {
    const { owner, pet } = await ownerWithPet();
    const { status, body } = await call<AdminPet>(ctx.app, 'PUT', `admin/update-pet/${pet.id}`, {
      token: admin.token,
      body: petCard(pet, { isChipActive: false, isActive: false }),
    });
    expect(status, body.errors.join()).toBe(200);
    expect(body.result).toMatchObject({ id: pet.id, name: 'Biscuit II', sex: 1, approximateWeight: 42, isActive: false, isChipActive: false });
    const seen = (await call<Pet>(ctx.app, 'GET', `Pet/${pet.id}`, { token: owner.token })).body.result!;
    expect(seen).toMatchObject({ name: 'Biscuit II', isActive: false, isChipActive: false, notes: 'Friendly' });
    const lookup = await call<MicrochipLookup>(ctx.app, 'GET', `utilities/microchip-lookup?id=${pet.microchip1}`);
    expect(lookup.body.result!.isRegistered).toBe(false);
    const [audit] = await auditOf('pet', pet.id);
    expect(audit).toMatchObject({ action: 'update', actorUserId: admin.user.id });
    expect(audit!.after).toMatchObject({ isActive: false, isChipActive: false, name: 'Biscuit II' });
  });

  it('moves the registration to a new chip number, keeping the brand', async () => {
    const { pet } = await ownerWithPet();
    const chipId = uniqueChip();
    const { body } = await call<AdminPet>(ctx.app, 'PUT', `admin/update-pet/${pet.id}`, { token: admin.token, body: petCard(pet, { microchip1: chipId }) });
    expect(body.result!.chips).toEqual([expect.objectContaining({ chipId, isActive: true, oneTime: true, chipTypeId: pet.chips[0]!.chipTypeId })]);
  });

  it('puts the chip messages on the microchip field and changes nothing', async () => {
    const { pet } = await ownerWithPet();
    const { pet: other } = await ownerWithPet();
    for (const [status, microchip1, message] of [
      [400, '12345', messages.chipTooShort],
      [400, '12345678901', messages.lookupLength],
      [409, other.microchip1, messages.chipTaken],
    ] as const) {
      const answer = await call(ctx.app, 'PUT', `admin/update-pet/${pet.id}`, { token: admin.token, body: petCard(pet, { microchip1 }) });
      expect(answer.status).toBe(status);
      expect(answer.body.errors).toEqual([message]);
    }
    const [row] = await db().select().from(pets).where(eq(pets.id, pet.id));
    expect(row!.name).toBe('Biscuit');
    expect(await auditOf('pet', pet.id)).toHaveLength(0);
  });

  it('refuses bad pet input with the admin rules', async () => {
    const { pet } = await ownerWithPet();
    for (const [body, message] of [
      [petCard(pet, { name: 'B' }), messages.petNameMin2],
      [petCard(pet, { name: '' }), messages.petNameRequired],
      [petCard(pet, { notes: 'x'.repeat(201) }), messages.notesTooLong],
      [petCard(pet, { approximateWeight: 'heavy' }), messages.weightNotNumber],
      [petCard(pet, { breeds: [1, 2, 3, 4].map((id) => ({ id, name: 'x' })) }), messages.breedsMax],
      [petCard(pet, { id: pet.id + 1 }), messages.petIdMismatch],
    ] as const) {
      const answer = await call(ctx.app, 'PUT', `admin/update-pet/${pet.id}`, { token: admin.token, body });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([message]);
    }
    // Three characters are not needed on the admin form (the owner's form asks for three).
    expect((await call(ctx.app, 'PUT', `admin/update-pet/${pet.id}`, { token: admin.token, body: petCard(pet, { name: 'Bo' }) })).status).toBe(200);
  });
});

describe('transfer', () => {
  async function linkVet(petId: number) {
    const [site] = await db().insert(sites).values({ name: 'Old Vet', source: 'admin' }).returning();
    await db().insert(sitePets).values({ siteId: site!.id, petId });
    return site!.id;
  }

  it('moves the pet to an existing account: the old owner loses it at once, both are told', async () => {
    const { owner, pet } = await ownerWithPet();
    const next = await signUpOwner(ctx.app);
    await linkVet(pet.id);
    const { status, body } = await call<PetTransfer>(ctx.app, 'POST', `admin/transfer-pet/${pet.id}`, {
      token: admin.token,
      body: { Email: next.input.email.toUpperCase() },
    });
    expect(status, body.errors.join()).toBe(200);
    expect(body.result).toEqual({ message: messages.petTransferred, petId: pet.id, userId: next.user.id, newAccount: false });

    // The previous owner: as for a stranger's pet.
    expect((await call<Pet[]>(ctx.app, 'GET', 'pet/user-pets', { token: owner.token })).body.result).toEqual([]);
    expect((await call(ctx.app, 'GET', `Pet/${pet.id}`, { token: owner.token })).status).toBe(403);
    expect((await call(ctx.app, 'PUT', 'Pet/pet-profile', { token: owner.token, body: { ...petCard(pet), chipId: '', confirmChip: '' } })).status).toBe(403);
    expect((await call(ctx.app, 'GET', `site/sites-for-pet/${pet.id}`, { token: owner.token })).status).toBe(403);
    // The new owner: the pet with its chip and cover; the old owner's vet is not carried over.
    const theirs = (await call<Pet[]>(ctx.app, 'GET', 'pet/user-pets', { token: next.token })).body.result!;
    expect(theirs).toEqual([expect.objectContaining({ id: pet.id, isActive: true, microchip1: pet.microchip1, isChipActive: true })]);
    expect(theirs[0]!.chips[0]).toMatchObject({ oneTime: true, isActive: true });
    expect((await call<Site[]>(ctx.app, 'GET', `site/sites-for-pet/${pet.id}`, { token: next.token })).body.result).toEqual([]);
    const lookup = await call<MicrochipLookup>(ctx.app, 'GET', `utilities/microchip-lookup?id=${pet.microchip1}`);
    expect(lookup.body.result!.isRegistered).toBe(true);

    expect((await mailTo(owner.input.email)).map((m) => m.subject)).toContain('Biscuit was transferred to a new owner');
    expect((await mailTo(next.input.email)).map((m) => m.subject)).toContain('Biscuit is now registered to you');
    const [audit] = await auditOf('pet', pet.id);
    expect(audit).toMatchObject({ action: 'transfer', before: { userId: owner.user.id }, after: { userId: next.user.id, newAccount: false } });
  });

  it('makes a new account with an invitation to set a password, which then signs in and sees the pet', async () => {
    const { owner, pet } = await ownerWithPet();
    const email = uniqueEmail();
    const { body } = await call<PetTransfer>(ctx.app, 'POST', `admin/transfer-pet/${pet.id}`, { token: admin.token, body: { Email: email } });
    expect(body.result).toMatchObject({ newAccount: true, petId: pet.id });
    const mails = await mailTo(email);
    expect(mails.map((m) => [m.kind, m.subject])).toEqual([
      ['invitation', 'Biscuit is waiting in your new pet registry account'],
      ['transfer', 'Biscuit is now registered to you'],
    ]);
    const invitation = mails[0];
    // It names the pet and the account it comes from: an account nobody asked for says why it exists.
    expect(invitation!.text).toMatch(
      new RegExp(`^Hello,\n\nA pet registry account was opened for you when our support team transferred Biscuit to you from ${owner.input.firstName} ${owner.input.lastName}'s account, and Biscuit's details are waiting in it\\.`),
    );
    expect(invitation!.html).toContain(`transferred Biscuit to you from ${owner.input.firstName} ${owner.input.lastName}&#39;s account`);
    expect((await mailTo(owner.input.email)).map((m) => m.subject)).toContain('Biscuit was transferred to a new owner');

    const link = new URL(/https?:\/\/\S+/.exec(invitation!.text)![0]);
    expect(link.pathname).toBe('/reset-password');
    expect(link.searchParams.get('invitation')).toBe('1');
    const credentials = { email: link.searchParams.get('email'), token: link.searchParams.get('code'), password: 'Welcome#123' };
    // The account has no names yet: its owner gives them, and a mobile phone, with the first password.
    for (const details of [{}, { firstName: 'Robin', lastName: 'Hale' }]) {
      const refused = await call(ctx.app, 'POST', 'Users/set-password-by-token', { body: { ...credentials, ...details } });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([messages.invitationDetailsRequired]);
    }
    const badPhone = await call(ctx.app, 'POST', 'Users/set-password-by-token', { body: { ...credentials, firstName: 'Robin', lastName: 'Hale', phoneNumber: '12' } });
    expect(badPhone.body.errors).toEqual([messages.phoneInvalid]);
    const set = await call(ctx.app, 'POST', 'Users/set-password-by-token', {
      body: { ...credentials, firstName: ' Robin ', lastName: 'Hale', phoneNumber: '(314) 555-0188' },
    });
    expect(set.status, set.body.errors.join()).toBe(200);
    const [account] = await db().select().from(users).where(eq(users.email, email));
    expect(account).toMatchObject({ firstName: 'Robin', lastName: 'Hale', phoneNumber: '+13145550188' });
    const signIn = await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email, password: 'Welcome#123' } });
    expect(signIn.status).toBe(200);
    const theirs = (await call<Pet[]>(ctx.app, 'GET', 'pet/user-pets', { token: signIn.body.result!.token })).body.result!;
    expect(theirs).toEqual([expect.objectContaining({ id: pet.id, microchip1: pet.microchip1, isActive: true })]);
    expect((await call(ctx.app, 'GET', `Pet/${pet.id}`, { token: owner.token })).status).toBe(403);
  });

  it("stops the previous owner's yearly renewal; the cover stays with the pet", async () => {
    const { pet, renewal } = await ownerWithYearlyPlan();
    const next = await signUpOwner(ctx.app);
    expect((await call(ctx.app, 'POST', `admin/transfer-pet/${pet.id}`, { token: admin.token, body: { Email: next.input.email } })).status).toBe(200);
    expect(await renewal()).toBe('canceled');
    const theirs = (await call<Pet>(ctx.app, 'GET', `Pet/${pet.id}`, { token: next.token })).body.result!;
    expect(theirs).toMatchObject({ isActive: true, isChipActive: true });
    expect(Date.parse(theirs.chips[0]!.expirationDate!)).toBeGreaterThan(Date.now());
  });

  it('leaves the previous owner nothing to follow or pay for the pet: billing, an open alert checkout', async () => {
    const { token, pet } = await ownerWithLostPet();
    await siteNear('63101', 5);
    const { owner, pet: covered } = await ownerWithYearlyPlan();
    expect((await call<unknown[]>(ctx.app, 'GET', 'pet/microchip-subscriptions', { token: owner.token })).body.result).toHaveLength(1);
    const alert = await call<{ location: string }>(ctx.app, 'POST', 'petalert/send-mail-from-pet-alert', {
      token,
      body: { name: pet.name, petId: pet.id, missingDate: new Date(Date.now() - 3600_000).toISOString(), zipCode: '63101', incidentDescription: 'Ran off.', status: 'NEW' },
    });
    expect(alert.status).toBe(200);

    const next = await signUpOwner(ctx.app);
    for (const moved of [pet.id, covered.id]) {
      const answer = await call(ctx.app, 'POST', `admin/transfer-pet/${moved}`, { token: admin.token, body: { Email: next.input.email, confirmOpenAlert: true } });
      expect(answer.status).toBe(200);
    }
    expect((await call<unknown[]>(ctx.app, 'GET', 'pet/microchip-subscriptions', { token: owner.token })).body.result).toEqual([]);
    const sessionId = alert.body.result!.location.split('/checkout/')[1]!;
    const paid = await call(ctx.app, 'POST', `checkout/local/${sessionId}/pay`, {
      token,
      body: { name: 'Jamie Rivera', cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' },
    });
    expect(paid.status).toBe(409);
    expect(await db().select().from(alertEmails).innerJoin(checkoutSessions, eq(checkoutSessions.alertId, alertEmails.alertId)).where(eq(checkoutSessions.id, sessionId))).toEqual([]);
  });

  it("refuses an administrator's account (as the pet upload does), changing nothing and telling nobody", async () => {
    const { owner, pet } = await ownerWithPet();
    const sentBefore = await db().$count(mailOutbox);
    for (const Email of ['root@example.com', 'ROOT@example.com']) {
      const answer = await call(ctx.app, 'POST', `admin/transfer-pet/${pet.id}`, { token: admin.token, body: { Email } });
      expect(answer.status).toBe(409);
      expect(answer.body.errors).toEqual([messages.petUploadAccountAdmin]);
    }
    expect((await call(ctx.app, 'GET', `Pet/${pet.id}`, { token: owner.token })).status).toBe(200);
    expect(await auditOf('pet', pet.id)).toHaveLength(0);
    expect(await db().$count(mailOutbox)).toBe(sentBefore);
  });

  it('refuses the same owner, a disabled account and a bad e-mail, changing nothing', async () => {
    const { owner, pet } = await ownerWithPet();
    const disabled = await signUpOwner(ctx.app);
    await db().update(users).set({ isActive: false }).where(eq(users.id, disabled.user.id));
    for (const [status, Email, message] of [
      [409, owner.input.email, messages.petAlreadyOwned],
      [409, disabled.input.email, messages.transferAccountInactive],
      [400, 'nobody', messages.emailInvalid],
      [400, '', messages.emailRequired],
    ] as const) {
      const answer = await call(ctx.app, 'POST', `admin/transfer-pet/${pet.id}`, { token: admin.token, body: { Email } });
      expect(answer.status).toBe(status);
      expect(answer.body.errors).toEqual([message]);
    }
    expect((await call(ctx.app, 'GET', `Pet/${pet.id}`, { token: owner.token })).status).toBe(200);
    expect(await auditOf('pet', pet.id)).toHaveLength(0);
  });
});

describe('remove', () => {
  it('soft-deletes: gone from the owner, not registered at the lookup, still stored and audited', async () => {
    const { owner, pet } = await ownerWithPet();
    const { owner: bystander, pet: kept } = await ownerWithPet();
    const before = await call<MicrochipLookup>(ctx.app, 'GET', `utilities/microchip-lookup?id=${pet.microchip1}`);
    expect(before.body.result!.isRegistered).toBe(true);

    const { status, body } = await call<{ id: number }>(ctx.app, 'GET', `admin/remove-pet/${pet.id}`, { token: admin.token });
    expect(status).toBe(200);
    expect(body).toMatchObject({ succeeded: true, result: { id: pet.id } });

    expect((await call<Pet[]>(ctx.app, 'GET', 'pet/user-pets', { token: owner.token })).body.result).toEqual([]);
    expect((await call(ctx.app, 'GET', `Pet/${pet.id}`, { token: owner.token })).status).toBe(404);
    expect((await call(ctx.app, 'GET', `pet/pet-profiles/${pet.publicId}`)).status).toBe(404);
    const after = await call<MicrochipLookup>(ctx.app, 'GET', `utilities/microchip-lookup?id=${pet.microchip1}`);
    expect(after.body.result).toMatchObject({ isRegistered: false, result: null });
    // Another owner's pet is untouched.
    expect((await call<Pet[]>(ctx.app, 'GET', 'pet/user-pets', { token: bystander.token })).body.result).toEqual([expect.objectContaining({ id: kept.id })]);

    const [row] = await db().select().from(pets).where(eq(pets.id, pet.id));
    expect(row).toMatchObject({ deletedBy: admin.user.id, name: 'Biscuit' });
    expect(row!.deletedAt).toBeInstanceOf(Date);
    const [audit] = await auditOf('pet', pet.id);
    expect(audit).toMatchObject({ action: 'remove', actorUserId: admin.user.id });
    // Removed once: a second removal finds nothing, and the chip number is free again.
    expect((await call(ctx.app, 'GET', `admin/remove-pet/${pet.id}`, { token: admin.token })).status).toBe(404);
    await expect(registerPet(ctx.app, owner.token, pet.microchip1)).resolves.toMatchObject({ microchip1: pet.microchip1 });
  });

  it("still opens a removed pet's record for the administrator, saying when it was removed, and the chip search leads there", async () => {
    const { pet } = await ownerWithPet();
    expect((await call<AdminPet>(ctx.app, 'GET', `admin/user-pet/${pet.id}`, { token: admin.token })).body.result!.removed).toBeNull();
    expect((await call(ctx.app, 'GET', `admin/remove-pet/${pet.id}`, { token: admin.token })).status).toBe(200);
    const [row] = await db().select().from(pets).where(eq(pets.id, pet.id));

    const found = await call<{ petId: number; removed: boolean }>(ctx.app, 'GET', `admin/pet-by-microchip?chip=${pet.microchip1}`, { token: admin.token });
    expect(found.body.result).toMatchObject({ petId: pet.id, removed: true });
    const { status, body } = await call<AdminPet>(ctx.app, 'GET', `admin/user-pet/${pet.id}`, { token: admin.token });
    expect(status, body.errors.join()).toBe(200);
    expect(body.result).toMatchObject({ id: pet.id, name: 'Biscuit', removed: { at: row!.deletedAt!.toISOString(), chipIds: [pet.microchip1] } });
    expect((await call(ctx.app, 'GET', `admin/pet-support/${pet.id}`, { token: admin.token })).status).toBe(200);
    // Read-only: it cannot be saved, transferred or removed again.
    expect((await call(ctx.app, 'PUT', `admin/update-pet/${pet.id}`, { token: admin.token, body: petCard(pet, { microchip1: null }) })).status).toBe(404);
    expect((await call(ctx.app, 'POST', `admin/transfer-pet/${pet.id}`, { token: admin.token, body: { Email: uniqueEmail() } })).status).toBe(404);
  });

  it('cancels the e-mails of a removed pet\'s lost pet alert not sent yet', async () => {
    const { token, pet } = await ownerWithLostPet();
    await siteNear('78701', 5);
    const alert = await sendAndPay(token, pet.id, { zipCode: '78701', incidentDescription: 'Ran off', missingDate: '2024-01-01T21:00:00Z' });
    expect((await call(ctx.app, 'GET', `admin/remove-pet/${pet.id}`, { token: admin.token })).status).toBe(200);
    const sent: string[] = [];
    const collector: Mailer = { send: async (message) => void sent.push(message.to) };
    await sendDueAlertEmails(db(), collector, alertMailSettings);
    expect(sent).toEqual([]);
    const rows = await db().select().from(alertEmails).where(eq(alertEmails.alertId, alert.id));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.status === 'canceled')).toBe(true);
  });

  it('stops the yearly renewal of a removed pet', async () => {
    const { pet, renewal } = await ownerWithYearlyPlan();
    expect((await call(ctx.app, 'GET', `admin/remove-pet/${pet.id}`, { token: admin.token })).status).toBe(200);
    expect(await renewal()).toBe('canceled');
  });
});

// Paid alerts leave e-mails waiting for the worker: these come after the removal's, which sends every due e-mail.
describe('transfer of a lost pet', () => {
  it('asks the administrator to confirm first: without it, 409 and nothing moves; with it, the pet and its alert move', async () => {
    const { token, pet } = await ownerWithLostPet();
    await siteNear('63101', 5);
    await sendAndPay(token, pet.id, { zipCode: '63101', incidentDescription: 'Ran off.', missingDate: new Date(Date.now() - 3600_000).toISOString() });
    const next = await signUpOwner(ctx.app);
    const refused = await call(ctx.app, 'POST', `admin/transfer-pet/${pet.id}`, { token: admin.token, body: { Email: next.input.email } });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([messages.transferOpenAlert]);
    expect((await call(ctx.app, 'GET', `Pet/${pet.id}`, { token })).status).toBe(200);
    expect(await auditOf('pet', pet.id)).toHaveLength(0);
    // The sign-up's own confirmation is the only e-mail the new owner has: nothing about the pet.
    expect((await mailTo(next.input.email)).map((m) => m.kind)).toEqual(['email-confirmation']);

    const moved = await call(ctx.app, 'POST', `admin/transfer-pet/${pet.id}`, { token: admin.token, body: { Email: next.input.email, confirmOpenAlert: true } });
    expect(moved.status, moved.body.errors.join()).toBe(200);
    expect((await call<{ status: string }>(ctx.app, 'GET', `petalert/alerts/bypet/${pet.id}`, { token: next.token })).body.result).toMatchObject({ status: 'paid' });
  });
});

describe('the support view', () => {
  it('tells whether the pet is lost, its backup contacts, vets, payments and the last e-mails to the owner', async () => {
    const { token, pet, input } = await ownerWithLostPet();
    await siteNear('63101', 5);
    const quiet = await call<AdminPetSupport>(ctx.app, 'GET', `admin/pet-support/${pet.id}`, { token: admin.token });
    expect(quiet.status, quiet.body.errors.join()).toBe(200);
    expect(quiet.body.result).toMatchObject({ lost: null, backupContacts: [], vets: [], payments: [] });

    const missingDate = new Date(Date.now() - 3 * 3600_000).toISOString();
    await sendAndPay(token, pet.id, { zipCode: '63101', incidentDescription: 'Slipped the leash at the park.', missingDate });
    await call(ctx.app, 'POST', 'Users/backup-contact', { token, body: { name: 'Casey Rivera', phoneNumber: '(314) 555-0177' } });
    const [vet] = await db().insert(sites).values({ name: 'Riverside Animal Hospital', source: 'admin', phoneNumber: '+13145550142', address1: '1200 Market St', city: 'Saint Louis', state: 'MO', zipCode: '63101' }).returning();
    await db().insert(sitePets).values({ siteId: vet!.id, petId: pet.id });
    await db().insert(mailOutbox).values(
      Array.from({ length: 7 }, (_, i) => ({ recipient: input.email.toUpperCase(), kind: 'receipt' as const, subject: `Receipt ${i}`, text: 'Thanks' })),
    );

    const { body } = await call<AdminPetSupport>(ctx.app, 'GET', `admin/pet-support/${pet.id}`, { token: admin.token });
    const support = body.result!;
    expect(support.lost).toMatchObject({
      status: 'paid',
      missingDate,
      zipCode: '63101',
      place: 'Saint Louis, MO 63101',
      incidentDescription: 'Slipped the leash at the park.',
      sentAt: expect.any(String),
    });
    expect(support.lost!.recipientsCount).toBeGreaterThan(0);
    expect(support.backupContacts).toEqual([{ id: expect.any(Number), name: 'Casey Rivera', phoneNumber: '+13145550177', phoneConfirmed: false }]);
    expect(support.vets).toEqual([{ id: vet!.id, name: 'Riverside Animal Hospital', phoneNumber: '+13145550142', place: '1200 Market St, Saint Louis, MO 63101', isActive: true }]);
    expect(support.payments).toEqual([expect.objectContaining({ amount: expect.any(Number), currency: 'usd', status: 'paid', cardLast4: '4242', payerEmail: input.email })]);
    // The newest few, in any case of the address; the mail log has the rest.
    expect(support.mails.map((m) => m.subject)).toEqual(['Receipt 6', 'Receipt 5', 'Receipt 4', 'Receipt 3', 'Receipt 2']);
    expect(support.mails[0]).toMatchObject({ kind: 'receipt', status: 'pending', createdAt: expect.any(String) });

    // Another owner's contacts never show on this pet's view.
    const stranger = await signUpOwner(ctx.app);
    await call(ctx.app, 'POST', 'Users/backup-contact', { token: stranger.token, body: { name: 'Not Theirs', phoneNumber: '(314) 555-0166' } });
    expect((await call<AdminPetSupport>(ctx.app, 'GET', `admin/pet-support/${pet.id}`, { token: admin.token })).body.result!.backupContacts).toHaveLength(1);
  });

  it('answers 401 to a guest, 403 to an owner, even for their own pet, and 404 for an unknown pet', async () => {
    const { owner, pet } = await ownerWithPet();
    expect((await call(ctx.app, 'GET', `admin/pet-support/${pet.id}`)).status).toBe(401);
    expect((await call(ctx.app, 'GET', `admin/pet-support/${pet.id}`, { token: owner.token })).status).toBe(403);
    const unknown = await call(ctx.app, 'GET', 'admin/pet-support/999999', { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors).toEqual([messages.notFound]);
  });
});
