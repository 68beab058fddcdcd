import { messages, type AuthResult, type User } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.js';
import { call, createTestApp, registerPet, signUpOwner, uniqueEmail, validSignUp, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('POST Users/signup', () => {
  it('creates a customer, answers a token and the user object, and normalises the phone', async () => {
    const input = validSignUp();
    const { status, body } = await call<AuthResult>(ctx.app, 'POST', 'Users/signup', { body: input });
    expect(status).toBe(200);
    expect(body.succeeded).toBe(true);
    expect(body.result!.token).toMatch(/^ey/);
    const user = body.result!.user;
    expect(user.role).toEqual(['customer']);
    expect(user.data).toMatchObject({
      displayName: 'Jamie Rivera',
      email: input.email,
      firstName: 'Jamie',
      lastName: 'Rivera',
      phoneNumber: '+14155552671',
      haveActivePets: false,
      haveSubscriptions: false,
      isActive: true,
    });
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it.each([
    [{ email: '' }, messages.emailRequired],
    [{ email: 'not-an-email' }, messages.emailInvalid],
    [{ email: `${'a'.repeat(250)}@example.com` }, messages.emailTooLong],
    [{ firstName: '' }, messages.firstNameRequiredSignUp],
    [{ lastName: '' }, messages.lastNameRequiredSignUp],
    [{ phoneNumber: '' }, messages.phoneRequired],
    [{ phoneNumber: '+1 (415) 555-2671 ext 12' }, messages.phoneTooLong],
    [{ phoneNumber: '12345' }, messages.phoneInvalid],
    [{ password: '' }, messages.passwordRequired],
    [{ password: 'secret#123' }, messages.passwordWeak],
    [{ password: 'Secret1234' }, messages.passwordWeak],
    [{ password: 'Sh#1' }, messages.passwordWeak],
    [{ password: `Aa1!${'x'.repeat(252)}` }, messages.passwordTooLong],
  ])('refuses %j with the spec message and stores nothing', async (override, message) => {
    const input = { ...validSignUp(), ...override };
    const { status, body } = await call(ctx.app, 'POST', 'Users/signup', { body: input });
    expect(status).toBe(400);
    expect(body).toEqual({ succeeded: false, result: null, errors: [message] });
    if (input.email.includes('@')) {
      expect(await ctx.database.db.select().from(users).where(eq(users.email, input.email))).toHaveLength(0);
    }
  });

  it('answers 409 "Email is already taken" for an e-mail in any letter case', async () => {
    const { input } = await signUpOwner(ctx.app);
    const { status, body } = await call(ctx.app, 'POST', 'Users/signup', {
      body: { ...validSignUp(), email: input.email.toUpperCase() },
    });
    expect(status).toBe(409);
    expect(body.errors).toEqual([messages.emailTaken]);
  });
});

describe('POST Users/login', () => {
  it('signs in with the right password, whatever the e-mail case', async () => {
    const { input } = await signUpOwner(ctx.app);
    const { status, body } = await call<AuthResult>(ctx.app, 'POST', 'Users/login', {
      body: { email: input.email.toUpperCase(), password: input.password },
    });
    expect(status).toBe(200);
    expect(body.result!.user.data.email).toBe(input.email);
  });

  it('gives the same answer for a wrong password and an unknown e-mail', async () => {
    const { input } = await signUpOwner(ctx.app);
    const wrong = await call(ctx.app, 'POST', 'Users/login', { body: { email: input.email, password: 'Wrong#123' } });
    const unknown = await call(ctx.app, 'POST', 'Users/login', { body: { email: uniqueEmail(), password: 'Wrong#123' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([messages.invalidCredentials]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([messages.invalidCredentials]);
  });

  it.each([
    [{ email: '', password: 'x' }, messages.emailRequired],
    [{ email: 'nope', password: 'x' }, messages.emailInvalid],
    [{ email: 'a@example.com', password: '' }, messages.passwordRequired],
    [{ email: 'a@example.com', password: 'x'.repeat(256) }, messages.passwordTooLong],
  ])('validates %j', async (body, message) => {
    const answer = await call(ctx.app, 'POST', 'Users/login', { body, ip: '10.9.9.9' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([message]);
  });

  it('refuses a deactivated user', async () => {
    const { token, input } = await signUpOwner(ctx.app);
    expect((await call(ctx.app, 'GET', 'Users/deactivate-user', { token })).status).toBe(200);
    const { status, body } = await call(ctx.app, 'POST', 'Users/login', { body: { email: input.email, password: input.password } });
    expect(status).toBe(403);
    expect(body.errors).toEqual([messages.accountDeactivated]);
  });

  it('limits attempts per e-mail, from any address', async () => {
    const { input } = await signUpOwner(ctx.app);
    for (let i = 0; i < 10; i++) {
      const attempt = await call(ctx.app, 'POST', 'Users/login', {
        body: { email: input.email, password: 'Wrong#123' },
        ip: `10.1.0.${i}`,
      });
      expect(attempt.status).toBe(400);
    }
    const blocked = await call(ctx.app, 'POST', 'Users/login', {
      body: { email: input.email, password: input.password },
      ip: '10.1.1.1',
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.errors).toEqual([messages.tooManyRequests]);
  });

  it('limits attempts per IP address, whatever the e-mail', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const attempt = await call(ctx.app, 'POST', 'Users/login', {
        body: { email: uniqueEmail(), password: 'Wrong#123' },
        ip: '10.2.2.2',
      });
      statuses.push(attempt.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('GET Users/email-exists', () => {
  it('answers result.id for a taken e-mail, without the account id, and null for a free one', async () => {
    const { input } = await signUpOwner(ctx.app);
    const taken = await call(ctx.app, 'GET', `Users/email-exists/?email=${encodeURIComponent(input.email)}`);
    expect(taken.body.result).toEqual({ id: true });
    const free = await call(ctx.app, 'GET', `Users/email-exists/?email=${encodeURIComponent(uniqueEmail())}`);
    expect(free.status).toBe(200);
    expect(free.body.result).toBeNull();
  });

  it('validates the e-mail', async () => {
    const { status, body } = await call(ctx.app, 'GET', 'Users/email-exists/?email=nope');
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.emailInvalid]);
  });

  it('is rate limited per IP', async () => {
    let last = 0;
    for (let i = 0; i < 31; i++) {
      last = (await call(ctx.app, 'GET', `Users/email-exists/?email=${uniqueEmail()}`, { ip: '10.3.3.3' })).status;
    }
    expect(last).toBe(429);
  });
});

describe('sessions', () => {
  it('answers the current user for a valid token, with any path letter case', async () => {
    const { token, user } = await signUpOwner(ctx.app);
    const { status, body } = await call<User>(ctx.app, 'GET', 'users/CURRENT-USER', { token });
    expect(status).toBe(200);
    expect(body.result).toEqual(user);
  });

  it.each([
    ['no token', undefined],
    ['a malformed token', 'garbage'],
    ['a token signed with another key', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwic2lkIjoieCJ9.c2lnbmF0dXJl'],
  ])('answers 401 "Invalid access_token" with %s', async (_name, token) => {
    const { status, body } = await call(ctx.app, 'GET', 'Users/current-user', { token });
    expect(status).toBe(401);
    expect(body.errors).toEqual([messages.invalidAccessToken]);
  });

  it('token-login answers a fresh token for the same user', async () => {
    const { token, user } = await signUpOwner(ctx.app);
    const { status, body } = await call<AuthResult>(ctx.app, 'GET', 'Users/token-login', { token });
    expect(status).toBe(200);
    expect(body.result!.user.id).toBe(user.id);
    expect((await call(ctx.app, 'GET', 'Users/current-user', { token: body.result!.token })).status).toBe(200);
    expect((await call(ctx.app, 'GET', 'Users/token-login')).status).toBe(401);
  });

  it('logout ends the session: the token stops working', async () => {
    const { token } = await signUpOwner(ctx.app);
    expect((await call(ctx.app, 'POST', 'Users/logout', { token })).status).toBe(200);
    expect((await call(ctx.app, 'GET', 'Users/current-user', { token })).status).toBe(401);
  });

  it('deactivation ends every session of the user', async () => {
    const { token, input } = await signUpOwner(ctx.app);
    const second = await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: input.email, password: input.password } });
    await call(ctx.app, 'GET', 'Users/deactivate-user', { token });
    expect((await call(ctx.app, 'GET', 'Users/current-user', { token: second.body.result!.token })).status).toBe(401);
  });

  it('deactivate-user needs a token', async () => {
    expect((await call(ctx.app, 'GET', 'Users/deactivate-user')).status).toBe(401);
  });
});

describe('POST auth/user/update', () => {
  it('saves the user settings and shortcuts', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { status, body } = await call<User>(ctx.app, 'POST', 'auth/user/update', {
      token,
      body: { data: { settings: { loginRedirectUrl: '/client/pet' }, shortcuts: ['pets'] } },
    });
    expect(status).toBe(200);
    expect(body.result!.data.settings).toEqual({ loginRedirectUrl: '/client/pet' });
    expect(body.result!.data.shortcuts).toEqual(['pets']);
    expect((await call(ctx.app, 'POST', 'auth/user/update', { body: { data: {} } })).status).toBe(401);
  });
});

describe('every answer', () => {
  it('carries security headers and the envelope, also for unknown API paths', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v2/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ succeeded: false, result: null, errors: [messages.notFound] });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('answers 400 in the envelope for a body that is not JSON', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v2/Users/login',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().succeeded).toBe(false);
  });
});

describe('backing out of sign-up', () => {
  it('frees the e-mail of the abandoned account, and signing up again revives it', async () => {
    const first = await signUpOwner(ctx.app);
    await call(ctx.app, 'GET', 'Users/deactivate-user', { token: first.token });
    const exists = await call(ctx.app, 'GET', `Users/email-exists/?email=${encodeURIComponent(first.input.email)}`);
    expect(exists.body.result).toBeNull();

    const again = await call<AuthResult>(ctx.app, 'POST', 'Users/signup', {
      body: { ...validSignUp(), email: first.input.email, firstName: 'Jo', password: 'Other#Pass2' },
    });
    expect(again.status).toBe(200);
    expect(again.body.result!.user).toMatchObject({ id: first.user.id, data: { firstName: 'Jo', isActive: true } });
    expect((await call(ctx.app, 'GET', 'Users/current-user', { token: first.token })).status).toBe(401);
    expect((await call(ctx.app, 'POST', 'Users/login', { body: { email: first.input.email, password: 'Other#Pass2' } })).status).toBe(200);
  });

  it('never closes an account that holds a pet', async () => {
    const owner = await signUpOwner(ctx.app);
    await registerPet(ctx.app, owner.token);
    const refused = await call(ctx.app, 'GET', 'Users/deactivate-user', { token: owner.token });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([messages.accountNotClosable]);
    expect((await call(ctx.app, 'GET', 'Users/current-user', { token: owner.token })).status).toBe(200);
    const { status, body } = await call(ctx.app, 'POST', 'Users/signup', { body: { ...validSignUp(), email: owner.input.email } });
    expect(status).toBe(409);
    expect(body.errors).toEqual([messages.emailTaken]);
  });

  it('limits sign-ups per IP address', async () => {
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await call(ctx.app, 'POST', 'Users/signup', { body: validSignUp(), ip: '10.7.7.7' })).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
