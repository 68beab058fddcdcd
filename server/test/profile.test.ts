import { messages, type AuthResult, type User } from '@petreg/contract';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, emailChanges, mailOutbox, users } from '../src/db/schema.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { call, createTestApp, signUpOwner, uniqueEmail, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const profile = (email: string) => ({
  firstName: 'Morgan',
  lastName: 'Lee',
  email,
  phoneNumber: '415-555-0134',
  address1: '12 Elm St',
  address2: '',
  city: 'Springfield',
  stateId: 1,
  zipcode: '62701',
  notifyByEmail: true,
  notifyBySms: false,
});

describe('PUT Users/{id}', () => {
  it('updates the own profile and answers the user', async () => {
    const { token, user, input } = await signUpOwner(ctx.app);
    const { status, body } = await call<User>(ctx.app, 'PUT', `Users/${user.id}`, { token, body: profile(input.email) });
    expect(status).toBe(200);
    expect(body.result!.data).toMatchObject({
      firstName: 'Morgan',
      lastName: 'Lee',
      displayName: 'Morgan Lee',
      phoneNumber: '+14155550134',
      address1: '12 Elm St',
      address2: null,
      city: 'Springfield',
      stateId: 1,
      zipcode: '62701',
      notifyByEmail: true,
      notifyBySms: false,
    });
    expect(body.result!.data.state).toEqual({ abbreviation: 'AL', countryAbbreviation: 'US' });
  });

  it.each([
    [{ firstName: '' }, messages.firstNameRequired],
    [{ firstName: 'M' }, messages.firstNameMin],
    [{ lastName: '' }, messages.lastNameRequired],
    [{ lastName: 'L' }, messages.lastNameMin],
    [{ email: '' }, messages.emailRequired],
    [{ email: 'nope' }, messages.emailInvalid],
    [{ phoneNumber: '123' }, messages.phoneInvalid],
  ])('refuses %j and changes nothing', async (override, message) => {
    const { token, user, input } = await signUpOwner(ctx.app);
    const { status, body } = await call(ctx.app, 'PUT', `Users/${user.id}`, { token, body: { ...profile(input.email), ...override } });
    expect(status).toBe(400);
    expect(body.errors).toEqual([message]);
    const current = await call<User>(ctx.app, 'GET', 'Users/current-user', { token });
    expect(current.body.result).toEqual(user);
  });

  it("refuses another owner's profile with 403 and changes nothing", async () => {
    const owner = await signUpOwner(ctx.app);
    const other = await signUpOwner(ctx.app);
    const { status } = await call(ctx.app, 'PUT', `Users/${other.user.id}`, { token: owner.token, body: profile(other.input.email) });
    expect(status).toBe(403);
    const current = await call<User>(ctx.app, 'GET', 'Users/current-user', { token: other.token });
    expect(current.body.result!.data.firstName).toBe('Jamie');
  });

  it('refuses an e-mail that another account has', async () => {
    const owner = await signUpOwner(ctx.app);
    const other = await signUpOwner(ctx.app);
    const { status, body } = await call(ctx.app, 'PUT', `Users/${owner.user.id}`, {
      token: owner.token,
      body: { ...profile(other.input.email), currentPassword: owner.input.password },
    });
    expect(status).toBe(409);
    expect(body.errors).toEqual([messages.emailTaken]);
  });

  it('needs a token', async () => {
    const { user, input } = await signUpOwner(ctx.app);
    expect((await call(ctx.app, 'PUT', `Users/${user.id}`, { body: profile(input.email) })).status).toBe(401);
  });

  it("lets an administrator update an owner's profile", async () => {
    await ensureAdministrator(ctx.database.db, { email: 'root@example.com', password: 'Admin#Pass1' });
    const admin = await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } });
    expect(admin.body.result!.user.role).toEqual(['admin']);
    const owner = await signUpOwner(ctx.app);
    const { status } = await call(ctx.app, 'PUT', `Users/${owner.user.id}`, { token: admin.body.result!.token, body: profile(owner.input.email) });
    expect(status).toBe(200);
    const [entry] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entityId, String(owner.user.id)));
    expect(entry).toMatchObject({ actorUserId: admin.body.result!.user.id, action: 'update', entity: 'user' });
    expect(entry!.before).toMatchObject({ firstName: 'Jamie' });
    expect(entry!.before).not.toHaveProperty('passwordHash');
  });
});

describe('changing the e-mail', () => {
  /** The link in the newest confirmation e-mail the outbox holds for the address, and its token. */
  async function confirmationLink(email: string) {
    const mails = await ctx.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, email), eq(mailOutbox.subject, 'Confirm your new email address')))
      .orderBy(mailOutbox.id);
    const link = new URL(mails.at(-1)!.text.match(/https?:\/\/\S+/)![0]);
    expect(link.pathname).toBe('/confirm-email');
    return link.searchParams.get('token')!;
  }

  const confirm = (token: string) => call(ctx.app, 'POST', 'Users/confirm-email', { body: { token } });
  const currentEmail = async (token: string) => (await call<User>(ctx.app, 'GET', 'Users/current-user', { token })).body.result!.data.email;

  async function requestChange(owner: Awaited<ReturnType<typeof signUpOwner>>, newEmail: string) {
    const answer = await call<User>(ctx.app, 'PUT', `Users/${owner.user.id}`, {
      token: owner.token,
      body: { ...profile(newEmail), currentPassword: owner.input.password },
    });
    expect(answer.status).toBe(200);
    return answer;
  }

  it.each([
    [undefined, messages.currentPasswordRequired],
    ['Wrong#Pass1', messages.currentPasswordWrong],
  ])('asks for the current password (%s) and changes nothing', async (currentPassword, message) => {
    const owner = await signUpOwner(ctx.app);
    const newEmail = uniqueEmail();
    const { status, body } = await call(ctx.app, 'PUT', `Users/${owner.user.id}`, { token: owner.token, body: { ...profile(newEmail), currentPassword } });
    expect(status).toBe(400);
    expect(body.errors).toEqual([message]);
    expect(await currentEmail(owner.token)).toBe(owner.input.email);
    expect(await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, newEmail))).toEqual([]);
  });

  it('takes effect only when the link mailed to the new address is followed, and tells the old address', async () => {
    const owner = await signUpOwner(ctx.app);
    const newEmail = uniqueEmail();
    const saved = await requestChange(owner, newEmail);
    expect(saved.body.result!.data).toMatchObject({ email: owner.input.email, firstName: 'Morgan' });
    expect(await currentEmail(owner.token)).toBe(owner.input.email);

    const token = await confirmationLink(newEmail);
    const [row] = await ctx.database.db.select().from(emailChanges).where(eq(emailChanges.userId, owner.user.id));
    expect(row!.tokenHash).not.toContain(token);
    const confirmed = await confirm(token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.result).toEqual({ changed: true });
    expect(await currentEmail(owner.token)).toBe(newEmail);
    expect((await call(ctx.app, 'POST', 'Users/login', { body: { email: newEmail, password: owner.input.password } })).status).toBe(200);
    expect((await call(ctx.app, 'POST', 'Users/login', { body: { email: owner.input.email, password: owner.input.password } })).status).toBe(400);
    const notices = await ctx.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, owner.input.email), eq(mailOutbox.kind, 'email-change')))
      .orderBy(mailOutbox.id);
    expect(notices.map((n) => n.subject)).toEqual(['A change of your email address was requested', 'Your email address was changed']);
    expect(notices.every((n) => n.text.includes(newEmail))).toBe(true);

    const again = await confirm(token);
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([messages.emailChangeLinkInvalid]);
  });

  it('ends when the password changes, so whoever asked with a known password cannot finish it', async () => {
    const owner = await signUpOwner(ctx.app);
    const stranger = uniqueEmail();
    await requestChange(owner, stranger);
    const token = await confirmationLink(stranger);
    const changed = await call(ctx.app, 'POST', 'Users/ChangeUserPassword', {
      token: owner.token,
      body: { currentPassword: owner.input.password, newPassword: 'Brand#New2', confirmPassword: 'Brand#New2' },
    });
    expect(changed.status).toBe(200);
    const refused = await confirm(token);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([messages.emailChangeLinkInvalid]);
    expect(await currentEmail(owner.token)).toBe(owner.input.email);
  });

  it('honours only the newest link', async () => {
    const owner = await signUpOwner(ctx.app);
    const first = uniqueEmail();
    await requestChange(owner, first);
    const firstToken = await confirmationLink(first);
    const second = uniqueEmail();
    await requestChange(owner, second);
    expect((await confirm(firstToken)).status).toBe(400);
    expect((await confirm(await confirmationLink(second))).status).toBe(200);
    expect(await currentEmail(owner.token)).toBe(second);
  });

  it('refuses an expired link', async () => {
    const owner = await signUpOwner(ctx.app);
    const newEmail = uniqueEmail();
    await requestChange(owner, newEmail);
    await ctx.database.db.update(emailChanges).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailChanges.userId, owner.user.id));
    const { status, body } = await confirm(await confirmationLink(newEmail));
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.emailChangeLinkInvalid]);
    expect(await currentEmail(owner.token)).toBe(owner.input.email);
  });

  it('refuses the link when another account took the address in the meantime', async () => {
    const owner = await signUpOwner(ctx.app);
    const newEmail = uniqueEmail();
    await requestChange(owner, newEmail);
    await signUpOwner(ctx.app, { email: newEmail });
    const { status, body } = await confirm(await confirmationLink(newEmail));
    expect(status).toBe(409);
    expect(body.errors).toEqual([messages.emailTaken]);
    expect(await currentEmail(owner.token)).toBe(owner.input.email);
  });

  it('saves a change of letter case at once, without a password', async () => {
    const owner = await signUpOwner(ctx.app);
    const { status, body } = await call<User>(ctx.app, 'PUT', `Users/${owner.user.id}`, { token: owner.token, body: profile(owner.input.email.toUpperCase()) });
    expect(status).toBe(200);
    expect(body.result!.data.email).toBe(owner.input.email.toUpperCase());
  });

  it('validates the token', async () => {
    const { status, body } = await confirm('');
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.emailChangeLinkInvalid]);
  });
});

describe('profile photo', () => {
  it('stores a new photo re-encoded, keeps it when its name is sent back or left out, and serves it', async () => {
    const { token, user, input } = await signUpOwner(ctx.app);
    const png = await sharp({ create: { width: 40, height: 40, channels: 4, background: '#3366aa80' } }).png().toBuffer();
    const saved = await call<User>(ctx.app, 'PUT', `Users/${user.id}`, {
      token,
      body: { ...profile(input.email), photo: `data:image/png;base64,${png.toString('base64')}` },
    });
    expect(saved.status).toBe(200);
    const photoUrl = saved.body.result!.data.photoUrl!;
    expect(photoUrl).toMatch(/^\/api\/v2\/Users\/user-images\/[a-f0-9]{32}\.jpg$/);
    const served = await ctx.app.inject({ method: 'GET', url: photoUrl });
    expect(served.statusCode).toBe(200);
    expect((await sharp(served.rawPayload).metadata()).format).toBe('jpeg');

    const name = photoUrl.split('/').at(-1)!;
    const kept = await call<User>(ctx.app, 'PUT', `Users/${user.id}`, { token, body: { ...profile(input.email), photo: name } });
    expect(kept.body.result!.data.photoUrl).toBe(photoUrl);
    const untouched = await call<User>(ctx.app, 'PUT', `Users/${user.id}`, { token, body: profile(input.email) });
    expect(untouched.body.result!.data.photoUrl).toBe(photoUrl);
    const removed = await call<User>(ctx.app, 'PUT', `Users/${user.id}`, { token, body: { ...profile(input.email), photo: '' } });
    expect(removed.body.result!.data.photoUrl).toBeNull();
  });

  it('refuses what is not an image and keeps the old photo', async () => {
    const { token, user, input } = await signUpOwner(ctx.app);
    const { status, body } = await call(ctx.app, 'PUT', `Users/${user.id}`, {
      token,
      body: { ...profile(input.email), photo: `data:image/jpeg;base64,${Buffer.from('not an image').toString('base64')}` },
    });
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.onlyImages]);
    expect((await call<User>(ctx.app, 'GET', 'Users/current-user', { token })).body.result!.data.firstName).toBe('Jamie');
  });

  it('answers 404 for an image it did not store', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v2/Users/user-images/..%2F..%2Fjwt-secret' });
    expect(response.statusCode).toBe(404);
  });
});

describe('POST Users/ChangeUserPassword', () => {
  it('changes the password when the current one is right', async () => {
    const { token, input } = await signUpOwner(ctx.app);
    const { status, body } = await call(ctx.app, 'POST', 'Users/ChangeUserPassword', {
      token,
      body: { currentPassword: input.password, newPassword: 'Fresh#Pass9', confirmPassword: 'Fresh#Pass9' },
    });
    expect(status).toBe(200);
    expect(body.result).toBe(true);
    expect((await call(ctx.app, 'POST', 'Users/login', { body: { email: input.email, password: 'Fresh#Pass9' } })).status).toBe(200);
  });

  it.each([
    [{ currentPassword: '' }, messages.passwordRequired],
    [{ newPassword: 'weakpass', confirmPassword: 'weakpass' }, messages.passwordWeak],
    [{ newPassword: `Aa1!${'x'.repeat(252)}` }, messages.passwordTooLong],
    [{ confirmPassword: 'Other#Pass9' }, messages.passwordsMustMatch],
  ])('refuses %j', async (override, message) => {
    const { token, input } = await signUpOwner(ctx.app);
    const { status, body } = await call(ctx.app, 'POST', 'Users/ChangeUserPassword', {
      token,
      body: { currentPassword: input.password, newPassword: 'Fresh#Pass9', confirmPassword: 'Fresh#Pass9', ...override },
    });
    expect(status).toBe(400);
    expect(body.errors).toEqual([message]);
  });

  it('ends the other sessions of the account and keeps the current one', async () => {
    const { token, input } = await signUpOwner(ctx.app);
    const elsewhere = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: input.email, password: input.password } })).body.result!.token;
    await call(ctx.app, 'POST', 'Users/ChangeUserPassword', {
      token,
      body: { currentPassword: input.password, newPassword: 'Fresh#Pass9', confirmPassword: 'Fresh#Pass9' },
    });
    expect((await call(ctx.app, 'GET', 'Users/current-user', { token })).status).toBe(200);
    expect((await call(ctx.app, 'GET', 'Users/current-user', { token: elsewhere })).status).toBe(401);
  });

  it('refuses a wrong current password and keeps the old one', async () => {
    const { token, input } = await signUpOwner(ctx.app);
    const { status, body } = await call(ctx.app, 'POST', 'Users/ChangeUserPassword', {
      token,
      body: { currentPassword: 'Wrong#Pass1', newPassword: 'Fresh#Pass9', confirmPassword: 'Fresh#Pass9' },
    });
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.currentPasswordWrong]);
    expect((await call(ctx.app, 'POST', 'Users/login', { body: { email: input.email, password: input.password } })).status).toBe(200);
  });

  it('counts wrong current passwords like failed sign-ins, for the password and the e-mail alike', async () => {
    const { token, user, input } = await signUpOwner(ctx.app);
    const wrong = { currentPassword: 'Wrong#Pass1', newPassword: 'Fresh#Pass9', confirmPassword: 'Fresh#Pass9' };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await call(ctx.app, 'POST', 'Users/ChangeUserPassword', { token, body: wrong, ip: '10.30.0.1' })).status);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    const email = await call(ctx.app, 'PUT', `Users/${user.id}`, {
      token,
      body: { ...profile(uniqueEmail()), currentPassword: input.password },
      ip: '10.30.0.1',
    });
    expect(email.status).toBe(429);
    expect(email.body.errors).toEqual([messages.tooManyRequests]);
  });

  it('needs a token', async () => {
    expect((await call(ctx.app, 'POST', 'Users/ChangeUserPassword', { body: {} })).status).toBe(401);
  });
});

describe('first administrator', () => {
  it('is created once, with a generated password when none is configured', async () => {
    const fresh = await createTestApp();
    try {
      const created = await ensureAdministrator(fresh.database.db, { email: 'admin@localhost', password: undefined });
      expect(created!.generatedPassword).toMatch(/.{16,}/);
      expect(await ensureAdministrator(fresh.database.db, { email: 'admin@localhost', password: undefined })).toBeNull();
      const [row] = await fresh.database.db.select({ n: sql<number>`count(*)::int` }).from(users);
      expect(row!.n).toBe(1);
      const login = await call(fresh.app, 'POST', 'Users/login', { body: { email: 'admin@localhost', password: created!.generatedPassword } });
      expect(login.status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});
