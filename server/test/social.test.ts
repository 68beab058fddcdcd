import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messages, type AuthResult, type Pet } from '@petreg/contract';
import { and, eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, pets, users } from '../src/db/schema.js';
import { call, confirmSignUpEmail, createTestApp, readOutbox, registerPet, signUpOwner, uniqueEmail, type TestContext } from './helpers.js';

const GOOGLE_CLIENT_ID = 'registry-test.apps.googleusercontent.com';
const FACEBOOK_APP_ID = '1234567890';

/** A local stand-in for Google's key endpoint and Facebook's Graph API. */
let provider: Server;
let providerUrl: string;
let jwk: JWK;
let privateKey: CryptoKey;
const facebookUsers = new Map<string, { id: string; email?: string; first_name: string; last_name: string; appId: string }>();

let ctx: TestContext;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  privateKey = pair.privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  provider = createServer((req, res) => {
    const url = new URL(req.url!, 'http://localhost');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/certs') return res.end(JSON.stringify({ keys: [jwk] }));
    if (url.pathname === '/debug_token') {
      const person = facebookUsers.get(url.searchParams.get('input_token')!);
      const appOk = url.searchParams.get('access_token') === `${FACEBOOK_APP_ID}|app-secret`;
      return res.end(JSON.stringify({ data: person && appOk ? { is_valid: true, app_id: person.appId, user_id: person.id } : { is_valid: false } }));
    }
    if (url.pathname === '/me') {
      const person = facebookUsers.get(url.searchParams.get('access_token')!);
      if (!person) return res.writeHead(400).end('{}');
      const { appId: _appId, ...profile } = person;
      return res.end(JSON.stringify(profile));
    }
    res.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  ctx = await createTestApp({
    env: {
      GOOGLE_CLIENT_ID,
      GOOGLE_JWKS_URL: `${providerUrl}/certs`,
      FACEBOOK_APP_ID,
      FACEBOOK_APP_SECRET: 'app-secret',
      FACEBOOK_GRAPH_URL: providerUrl,
    },
  });
});

afterAll(async () => {
  await ctx.close();
  provider.close();
});

function googleIdToken(claims: Record<string, unknown>, options: { audience?: string; issuer?: string; key?: CryptoKey } = {}) {
  return new SignJWT({ email_verified: true, given_name: 'Ada', family_name: 'Park', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
    .setIssuer(options.issuer ?? 'https://accounts.google.com')
    .setAudience(options.audience ?? GOOGLE_CLIENT_ID)
    .setSubject(String(claims.sub ?? 'google-user-1'))
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(options.key ?? privateKey);
}

describe('POST Users/google-login', () => {
  it('signs up a new person from a verified ID token, then signs the same person in', async () => {
    const email = uniqueEmail();
    const token = await googleIdToken({ email, sub: 'g-new' });
    const first = await call<AuthResult>(ctx.app, 'POST', 'Users/google-login', { body: { token } });
    expect(first.status).toBe(200);
    expect(first.body.result!.user.data).toMatchObject({ email, firstName: 'Ada', lastName: 'Park' });
    expect(first.body.result!.user.role).toEqual(['customer']);
    const again = await call<AuthResult>(ctx.app, 'POST', 'Users/google-login', { body: { token: await googleIdToken({ email, sub: 'g-new' }) } });
    expect(again.body.result!.user.id).toBe(first.body.result!.user.id);
  });

  it('links to the existing account with the same e-mail once its owner confirmed the address', async () => {
    const owner = await signUpOwner(ctx.app);
    await registerPet(ctx.app, owner.token);
    await confirmSignUpEmail(ctx, owner.input.email);
    const token = await googleIdToken({ email: owner.input.email, sub: 'g-existing' });
    const { body } = await call<AuthResult>(ctx.app, 'POST', 'Users/google-login', { body: { token } });
    expect(body.result!.user.id).toBe(owner.user.id);
    expect((await call<Pet[]>(ctx.app, 'GET', 'pet/user-pets', { token: body.result!.token })).body.result).toHaveLength(1);
    // The owner's password and session still work.
    expect((await call(ctx.app, 'GET', 'Users/current-user', { token: owner.token })).status).toBe(200);
    expect((await call(ctx.app, 'POST', 'Users/login', { body: { email: owner.input.email, password: owner.input.password } })).status).toBe(200);
  });

  it('links to an account a reset link proved', async () => {
    const owner = await signUpOwner(ctx.app);
    await ctx.database.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, owner.user.id));
    await call(ctx.app, 'POST', 'Users/forgot-password', { body: { email: owner.input.email } });
    const link = new URL((await readOutbox(ctx.outboxDir)).at(-1)!.text!.match(/https?:\/\/\S+/)![0]);
    const reset = await call(ctx.app, 'POST', 'Users/set-password-by-token', {
      body: { email: owner.input.email, token: link.searchParams.get('code'), password: 'Reset#Pass9' },
    });
    expect(reset.status).toBe(200);
    const { body } = await call<AuthResult>(ctx.app, 'POST', 'Users/google-login', { body: { token: await googleIdToken({ email: owner.input.email, sub: 'g-reset' }) } });
    expect(body.result!.user.id).toBe(owner.user.id);
  });

  it("gives a stranger's unconfirmed sign-up with the address nothing: the provider's user starts a fresh account", async () => {
    const attacker = await signUpOwner(ctx.app);
    const email = attacker.input.email;
    await call(ctx.app, 'POST', 'Users/backup-contact', { token: attacker.token, body: { name: 'Accomplice', phoneNumber: '(415) 555-2671' } });

    const victim = await call<AuthResult>(ctx.app, 'POST', 'Users/google-login', { body: { token: await googleIdToken({ email, sub: 'g-victim' }) } });
    expect(victim.status).toBe(200);
    const { user, token } = victim.body.result!;
    expect(user.id).not.toBe(attacker.user.id);
    expect(user.data).toMatchObject({ email, firstName: 'Ada', lastName: 'Park', phoneNumber: null, emailConfirmed: true, haveActivePets: false });
    expect((await call<Pet[]>(ctx.app, 'GET', 'pet/user-pets', { token })).body.result).toEqual([]);
    expect((await call<unknown[]>(ctx.app, 'GET', 'Users/backup-contacts', { token })).body.result).toEqual([]);

    // The attacker's session ends and the password opens nothing.
    expect((await call(ctx.app, 'GET', 'Users/current-user', { token: attacker.token })).status).toBe(401);
    const login = await call(ctx.app, 'POST', 'Users/login', { body: { email, password: attacker.input.password } });
    expect(login.status).toBe(400);
    expect(login.body.errors).toEqual([messages.invalidCredentials]);

    // The old account stays for the audit, switched off.
    const [old] = await ctx.database.db.select().from(users).where(eq(users.id, attacker.user.id));
    expect(old).toMatchObject({ isActive: false, passwordHash: null });
    expect(old!.email).not.toContain(email);
    const [audit] = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'account.replace'), eq(auditLog.entityId, String(attacker.user.id))));
    expect(audit).toMatchObject({ actorUserId: user.id, before: expect.objectContaining({ email }) });

    // The same person signs in again to the same account.
    const again = await call<AuthResult>(ctx.app, 'POST', 'Users/google-login', { body: { token: await googleIdToken({ email, sub: 'g-victim' }) } });
    expect(again.body.result!.user.id).toBe(user.id);
  });

  it('never empties an unconfirmed account that holds a pet: the mailbox proves it, then the provider joins it, pet and all', async () => {
    const holder = await signUpOwner(ctx.app);
    const email = holder.input.email;
    const pet = await registerPet(ctx.app, holder.token);

    const refused = await call(ctx.app, 'POST', 'Users/google-login', { body: { token: await googleIdToken({ email, sub: 'g-holder' }) } });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([messages.socialSignInLinkSent]);
    const [kept] = await ctx.database.db.select().from(pets).where(eq(pets.id, pet.id));
    expect(kept).toMatchObject({ userId: holder.user.id, deletedAt: null });
    expect((await ctx.database.db.select().from(users).where(eq(users.id, holder.user.id)))[0]).toMatchObject({ email, googleId: null, emailVerifiedAt: null });

    // Whoever reads the mailbox sets the password; every other session ends, and the provider then joins the account.
    const link = new URL((await readOutbox(ctx.outboxDir)).at(-1)!.text!.match(/https?:\/\/\S+/)![0]);
    const reset = await call(ctx.app, 'POST', 'Users/set-password-by-token', { body: { email, token: link.searchParams.get('code'), password: 'Reset#Pass9' } });
    expect(reset.status).toBe(200);
    expect((await call(ctx.app, 'GET', 'Users/current-user', { token: holder.token })).status).toBe(401);
    const joined = await call<AuthResult>(ctx.app, 'POST', 'Users/google-login', { body: { token: await googleIdToken({ email, sub: 'g-holder' }) } });
    expect(joined.body.result!.user.id).toBe(holder.user.id);
    expect((await call<Pet[]>(ctx.app, 'GET', 'pet/user-pets', { token: joined.body.result!.token })).body.result!.map((p) => p.id)).toEqual([pet.id]);
  });

  it('joins an account an administrator opened for the address (no password yet)', async () => {
    const email = uniqueEmail();
    const [opened] = await ctx.database.db.insert(users).values({ email, firstName: '', lastName: '', roles: ['customer'] }).returning();
    const { body } = await call<AuthResult>(ctx.app, 'POST', 'Users/google-login', { body: { token: await googleIdToken({ email, sub: 'g-invited' }) } });
    expect(body.result!.user).toMatchObject({ id: opened!.id, data: { emailConfirmed: true } });
  });

  it.each([
    ['another audience', { audience: 'someone-else' }],
    ['another issuer', { issuer: 'https://evil.example.com' }],
  ])('refuses a token for %s', async (_name, options) => {
    const token = await googleIdToken({ email: uniqueEmail() }, options);
    const { status, body } = await call(ctx.app, 'POST', 'Users/google-login', { body: { token } });
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.socialSignInFailed]);
  });

  it('refuses a token signed by another key', async () => {
    const { privateKey: otherKey } = await generateKeyPair('RS256');
    const token = await googleIdToken({ email: uniqueEmail() }, { key: otherKey });
    expect((await call(ctx.app, 'POST', 'Users/google-login', { body: { token } })).status).toBe(400);
  });

  it('refuses an unverified e-mail', async () => {
    const token = await googleIdToken({ email: uniqueEmail(), email_verified: false });
    const { status, body } = await call(ctx.app, 'POST', 'Users/google-login', { body: { token } });
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.socialEmailMissing]);
  });

  it('refuses an account an administrator switched off', async () => {
    const owner = await signUpOwner(ctx.app);
    await confirmSignUpEmail(ctx, owner.input.email);
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, owner.user.id));
    const token = await googleIdToken({ email: owner.input.email, sub: 'g-deactivated' });
    const { status, body } = await call(ctx.app, 'POST', 'Users/google-login', { body: { token } });
    expect(status).toBe(403);
    expect(body.errors).toEqual([messages.accountDeactivated]);
  });

  it('opens again the account its proven owner closed during sign-up', async () => {
    const owner = await signUpOwner(ctx.app);
    await confirmSignUpEmail(ctx, owner.input.email);
    await call(ctx.app, 'GET', 'Users/deactivate-user', { token: owner.token });
    const token = await googleIdToken({ email: owner.input.email, sub: 'g-closed' });
    const { status, body } = await call<AuthResult>(ctx.app, 'POST', 'Users/google-login', { body: { token } });
    expect(status).toBe(200);
    expect(body.result!.user).toMatchObject({ id: owner.user.id, data: { isActive: true } });
  });
});

describe('POST Users/facebook-login', () => {
  it('signs in with an access token the Graph API vouches for', async () => {
    const email = uniqueEmail();
    facebookUsers.set('fb-token-1', { id: 'fb-1', email, first_name: 'Sam', last_name: 'Ortiz', appId: FACEBOOK_APP_ID });
    const { status, body } = await call<AuthResult>(ctx.app, 'POST', 'Users/facebook-login', { body: { token: 'fb-token-1' } });
    expect(status).toBe(200);
    expect(body.result!.user.data).toMatchObject({ email, firstName: 'Sam', lastName: 'Ortiz' });
  });

  it('refuses a token issued to another app', async () => {
    facebookUsers.set('fb-token-2', { id: 'fb-2', email: uniqueEmail(), first_name: 'Eve', last_name: 'X', appId: '999' });
    const { status, body } = await call(ctx.app, 'POST', 'Users/facebook-login', { body: { token: 'fb-token-2' } });
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.socialSignInFailed]);
  });

  it('refuses an unknown token', async () => {
    expect((await call(ctx.app, 'POST', 'Users/facebook-login', { body: { token: 'not-a-real-token' } })).status).toBe(400);
  });

  it('needs the e-mail permission', async () => {
    facebookUsers.set('fb-token-3', { id: 'fb-3', first_name: 'No', last_name: 'Mail', appId: FACEBOOK_APP_ID });
    const { body } = await call(ctx.app, 'POST', 'Users/facebook-login', { body: { token: 'fb-token-3' } });
    expect(body.errors).toEqual([messages.socialEmailMissing]);
  });
});

describe('when no provider is configured', () => {
  it('both routes answer 404 and say the option is not available', async () => {
    const plain = await createTestApp();
    try {
      for (const path of ['Users/google-login', 'Users/facebook-login']) {
        const { status, body } = await call(plain.app, 'POST', path, { body: { token: 'x'.repeat(20) } });
        expect(status).toBe(404);
        expect(body.errors).toEqual([messages.socialSignInDisabled]);
      }
    } finally {
      await plain.close();
    }
  });
});
