import { randomUUID } from 'node:crypto';
import { messages, type AuthResult, type User } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../src/adapters/mail/index.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { knownSignInAddresses, signInAttempts, users } from '../src/db/schema.js';
import { sweepSignInAttempts } from '../src/modules/users/signIn.js';
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

  const login = (email: string, password: string, ip: string, app = ctx.app) => call(app, 'POST', 'Users/login', { body: { email, password }, ip });

  it('slows a stranger guessing one account from many addresses', async () => {
    const { input } = await signUpOwner(ctx.app);
    for (let i = 0; i < 10; i++) expect((await login(input.email, 'Wrong#123', `10.1.0.${i}`)).status).toBe(400);
    // Even the right password waits out the window from an address the account never signed in from.
    const blocked = await login(input.email, input.password, '10.1.1.1');
    expect(blocked.status).toBe(429);
    expect(blocked.body.errors).toEqual([messages.tooManyRequests]);
  });

  it('slows guessing on an unknown e-mail the same way', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < 10; i++) expect((await login(email, 'Wrong#123', `10.1.2.${i}`)).status).toBe(400);
    expect((await login(email, 'Wrong#123', '10.1.3.1')).status).toBe(429);
  });

  it("never locks the owner out: a stranger's failures elsewhere leave the owner's own address open", async () => {
    const { input } = await signUpOwner(ctx.app);
    expect((await login(input.email, input.password, '10.20.0.1')).status).toBe(200);
    const stranger: number[] = [];
    for (let i = 0; i < 15; i++) stranger.push((await login(input.email, 'Wrong#123', `10.21.0.${i}`)).status);
    expect(stranger.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(stranger.slice(10).every((s) => s === 429)).toBe(true);
    expect((await login(input.email, input.password, '10.20.0.1')).status).toBe(200);
    // The owner's sign-in is no free guess for the stranger.
    expect((await login(input.email, input.password, '10.21.1.1')).status).toBe(429);
  });

  it('counts the address an owner signed up from as theirs, before any sign-in', async () => {
    const { input } = await signUpOwner(ctx.app, {}, '10.24.0.1');
    for (let i = 0; i < 12; i++) await login(input.email, 'Wrong#123', `10.24.1.${i}`);
    expect((await login(input.email, input.password, '10.24.0.1')).status).toBe(200);
    expect((await login(input.email, input.password, '10.24.2.1')).status).toBe(429);
  });

  it("takes a sign-in that succeeds back from the account's count, and clears its address's", async () => {
    const owner = await signUpOwner(ctx.app, {}, '10.26.0.1');
    for (let i = 0; i < 9; i++) expect((await login(owner.input.email, 'Wrong#123', '10.26.0.1')).status).toBe(400);
    expect((await login(owner.input.email, owner.input.password, '10.26.0.1')).status).toBe(200);
    // The owner's address starts again from nothing.
    for (let i = 0; i < 10; i++) expect((await login(owner.input.email, 'Wrong#123', '10.26.0.1')).status).toBe(400);
    expect((await login(owner.input.email, 'Wrong#123', '10.26.0.1')).status).toBe(429);

    const other = await signUpOwner(ctx.app, {}, '10.27.0.1');
    for (let i = 0; i < 9; i++) expect((await login(other.input.email, 'Wrong#123', `10.27.1.${i}`)).status).toBe(400);
    expect((await login(other.input.email, other.input.password, '10.27.0.1')).status).toBe(200);
    // Strangers' tenth try is still theirs: the owner's own sign-in did not use it up.
    expect((await login(other.input.email, 'Wrong#123', '10.27.2.1')).status).toBe(400);
    expect((await login(other.input.email, 'Wrong#123', '10.27.2.2')).status).toBe(429);
  });

  it('limits guesses on one account from one address, even a known one', async () => {
    const { input } = await signUpOwner(ctx.app);
    expect((await login(input.email, input.password, '10.22.0.1')).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await login(input.email, 'Wrong#123', '10.22.0.1')).status).toBe(400);
    expect((await login(input.email, input.password, '10.22.0.1')).status).toBe(429);
    // Another account from the same address is not affected.
    const other = await signUpOwner(ctx.app);
    expect((await login(other.input.email, other.input.password, '10.22.0.1')).status).toBe(200);
  });

  it('keeps the counts in the database, shared by every instance', async () => {
    const { input } = await signUpOwner(ctx.app);
    for (let i = 0; i < 10; i++) expect((await login(input.email, 'Wrong#123', `10.23.0.${i}`)).status).toBe(400);
    const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: ctx.outboxDir });
    const second = await buildApp({
      config,
      database: ctx.database,
      mailer: createMailer({ from: config.mailFrom, outboxDir: ctx.outboxDir }),
      jwtSecret: 'test-secret-test-secret-test-secret!',
      webRoot: '/nonexistent',
    });
    try {
      expect((await login(input.email, input.password, '10.23.1.1', second)).status).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('stores no e-mail or address in clear in the counters', async () => {
    const { input } = await signUpOwner(ctx.app);
    await login(input.email, 'Wrong#123', '10.24.0.1');
    await login(input.email, input.password, '10.24.0.2');
    const rows = JSON.stringify([
      await ctx.database.db.select().from(signInAttempts),
      await ctx.database.db.select().from(knownSignInAddresses),
    ]);
    expect(rows).not.toContain(input.email);
    expect(rows).not.toContain('10.24.0.');
  });

  it('forgets counters whose window is over', async () => {
    await login(uniqueEmail(), 'Wrong#123', '10.25.0.1');
    expect((await ctx.database.db.select().from(signInAttempts)).length).toBeGreaterThan(0);
    await sweepSignInAttempts(ctx.database.db, new Date(Date.now() + 16 * 60_000));
    expect(await ctx.database.db.select().from(signInAttempts)).toEqual([]);
  });

  it.runIf(process.env.TEST_DB === 'postgres')('leaves a counter a sign-in holds to the next sweep, without waiting for it', async () => {
    await login(uniqueEmail(), 'Wrong#123', '10.25.1.1');
    const later = new Date(Date.now() + 16 * 60_000);
    const [held] = await ctx.database.db.select({ key: signInAttempts.key }).from(signInAttempts).limit(1);
    await ctx.database.db.transaction(async (tx) => {
      await tx.select().from(signInAttempts).where(eq(signInAttempts.key, held!.key)).for('update');
      const swept = sweepSignInAttempts(ctx.database.db, later).then(() => 'swept');
      expect(await Promise.race([swept, new Promise((resolve) => setTimeout(resolve, 2000, 'waited'))])).toBe('swept');
    });
    expect((await ctx.database.db.select({ key: signInAttempts.key }).from(signInAttempts)).map((row) => row.key)).toEqual([held!.key]);
    await sweepSignInAttempts(ctx.database.db, later);
    expect(await ctx.database.db.select().from(signInAttempts)).toEqual([]);
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
    // Data: nothing in it may load, run or be framed.
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
  });

  it("gives pages, and the API's own pages (an alert e-mail's unsubscribe link, a pet's card, refused too), the pages' policy", async () => {
    // The card without a session: refused by the session check, which runs among the route's own hooks.
    for (const url of ['/client/pet', `/api/v2/email/unsubscribe/${randomUUID()}`, '/api/v2/Pet/1/card.pdf']) {
      const response = await ctx.app.inject({ method: 'GET', url });
      if (url.endsWith('.pdf')) expect(response.statusCode).toBe(401);
      expect(response.headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(response.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['cross-origin-opener-policy'], url).toBe('same-origin');
    }
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
