import { createHash, randomBytes } from 'node:crypto';
import { messages } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetTokens } from '../src/db/schema.js';
import { call, createTestApp, readOutbox, signUpOwner, uniqueEmail, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: 'https://registry.example.org' } });
});
afterAll(() => ctx.close());

/** Asks for a reset link and reads the code out of the e-mail, as the owner would. */
async function requestResetCode(email: string): Promise<string> {
  const before = (await readOutbox(ctx.outboxDir)).length;
  const { status, body } = await call(ctx.app, 'POST', 'Users/forgot-password', { body: { email } });
  expect(status).toBe(200);
  expect(body.result).toBe(true);
  const mails = await readOutbox(ctx.outboxDir);
  expect(mails).toHaveLength(before + 1);
  const mail = mails.at(-1)!;
  expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe(email);
  const link = new URL(mail.text!.match(/https:\/\/\S+/)![0]);
  expect(link.origin + link.pathname).toBe('https://registry.example.org/reset-password');
  expect(link.searchParams.get('email')).toBe(email);
  return link.searchParams.get('code')!;
}

describe('forgot and reset password', () => {
  it('resets the password with the mailed code, once', async () => {
    const { input, token } = await signUpOwner(ctx.app);
    const code = await requestResetCode(input.email);
    const body = { email: input.email, token: code, password: 'Brand#New1' };
    const reset = await call(ctx.app, 'POST', 'Users/set-password-by-token', { body });
    expect(reset.status).toBe(200);
    expect((await call(ctx.app, 'POST', 'Users/login', { body: { email: input.email, password: 'Brand#New1' } })).status).toBe(200);
    expect((await call(ctx.app, 'POST', 'Users/login', { body: { email: input.email, password: input.password } })).status).toBe(400);
    // Old sessions end with the password change.
    expect((await call(ctx.app, 'GET', 'Users/current-user', { token })).status).toBe(401);

    const reuse = await call(ctx.app, 'POST', 'Users/set-password-by-token', { body: { ...body, password: 'Other#Pass2' } });
    expect(reuse.status).toBe(400);
    expect(reuse.body.errors).toEqual([messages.resetLinkInvalid]);
  });

  it('stores only a hash of the code', async () => {
    const { input, user } = await signUpOwner(ctx.app);
    const code = await requestResetCode(input.email);
    const rows = await ctx.database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(code);
  });

  it('refuses an expired code', async () => {
    const { input, user } = await signUpOwner(ctx.app);
    const code = await requestResetCode(input.email);
    await ctx.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.userId, user.id));
    const { status, body } = await call(ctx.app, 'POST', 'Users/set-password-by-token', {
      body: { email: input.email, token: code, password: 'Brand#New1' },
    });
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.resetLinkInvalid]);
  });

  it("refuses a code used with another account's e-mail", async () => {
    const owner = await signUpOwner(ctx.app);
    const other = await signUpOwner(ctx.app);
    const code = await requestResetCode(owner.input.email);
    const { status } = await call(ctx.app, 'POST', 'Users/set-password-by-token', {
      body: { email: other.input.email, token: code, password: 'Brand#New1' },
    });
    expect(status).toBe(400);
    expect((await call(ctx.app, 'POST', 'Users/login', { body: { email: other.input.email, password: other.input.password } })).status).toBe(200);
  });

  /** Sets the new password with a code and answers the status. */
  const resetWith = async (email: string, code: string, password = 'Brand#New1') =>
    (await call(ctx.app, 'POST', 'Users/set-password-by-token', { body: { email, token: code, password } })).status;

  /** An outstanding link the owner asked for earlier, written straight into the database. */
  async function earlierLink(userId: number): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    await ctx.database.db.insert(passwordResetTokens).values({
      userId,
      tokenHash: createHash('sha256').update(code).digest('hex'),
      expiresAt: new Date(Date.now() + 3600_000),
    });
    return code;
  }

  it('voids the earlier links when a new one is sent', async () => {
    const { input } = await signUpOwner(ctx.app);
    const first = await requestResetCode(input.email);
    const second = await requestResetCode(input.email);
    expect(await resetWith(input.email, first)).toBe(400);
    expect(await resetWith(input.email, second)).toBe(200);
  });

  it('voids the other links when a reset completes', async () => {
    const { input, user } = await signUpOwner(ctx.app);
    const mailed = await requestResetCode(input.email);
    const other = await earlierLink(user.id);
    expect(await resetWith(input.email, mailed)).toBe(200);
    expect(await resetWith(input.email, other, 'Other#Pass2')).toBe(400);
  });

  it('voids every link when the password is changed', async () => {
    const { input, token } = await signUpOwner(ctx.app);
    const code = await requestResetCode(input.email);
    const changed = await call(ctx.app, 'POST', 'Users/ChangeUserPassword', {
      token,
      body: { currentPassword: input.password, newPassword: 'Fresh#Pass9', confirmPassword: 'Fresh#Pass9' },
    });
    expect(changed.status).toBe(200);
    expect(await resetWith(input.email, code)).toBe(400);
    expect((await call(ctx.app, 'POST', 'Users/login', { body: { email: input.email, password: 'Fresh#Pass9' } })).status).toBe(200);
  });

  it('enforces the password rule on the new password', async () => {
    const { input } = await signUpOwner(ctx.app);
    const code = await requestResetCode(input.email);
    const { status, body } = await call(ctx.app, 'POST', 'Users/set-password-by-token', {
      body: { email: input.email, token: code, password: 'weakpass' },
    });
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.passwordWeak]);
  });

  it('answers the same for an unknown e-mail and sends nothing', async () => {
    const before = (await readOutbox(ctx.outboxDir)).length;
    const { status, body } = await call(ctx.app, 'POST', 'Users/forgot-password', { body: { email: uniqueEmail() } });
    expect(status).toBe(200);
    expect(body.result).toBe(true);
    expect(await readOutbox(ctx.outboxDir)).toHaveLength(before);
  });

  it('validates the e-mail', async () => {
    const { status, body } = await call(ctx.app, 'POST', 'Users/forgot-password', { body: { email: '' } });
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.emailRequired]);
  });

  it('limits reset requests per e-mail', async () => {
    const { input } = await signUpOwner(ctx.app);
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await call(ctx.app, 'POST', 'Users/forgot-password', { body: { email: input.email }, ip: `10.4.0.${i}` })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("opens the address a reset link was followed from, so a stranger's guesses cannot keep the owner out", async () => {
    const { input } = await signUpOwner(ctx.app);
    const login = (password: string, ip: string) => call(ctx.app, 'POST', 'Users/login', { body: { email: input.email, password }, ip });
    for (let i = 0; i < 12; i++) await login('Wrong#123', `10.41.0.${i}`);
    // A new laptop: the account never signed in from here, so the stranger's guesses hold it back.
    expect((await login(input.password, '10.41.9.9')).status).toBe(429);
    const token = await requestResetCode(input.email);
    const reset = await call(ctx.app, 'POST', 'Users/set-password-by-token', {
      body: { email: input.email, token, password: 'Brand#New1' },
      ip: '10.41.9.9',
    });
    expect(reset.status).toBe(200);
    expect((await login('Brand#New1', '10.41.9.9')).status).toBe(200);
    expect((await login('Brand#New1', '10.41.8.8')).status).toBe(429);
  });

  it('limits reset attempts per IP', async () => {
    let last = 0;
    for (let i = 0; i < 11; i++) {
      last = (
        await call(ctx.app, 'POST', 'Users/set-password-by-token', {
          body: { email: uniqueEmail(), token: 'guess-guess', password: 'Brand#New1' },
          ip: '10.5.5.5',
        })
      ).status;
    }
    expect(last).toBe(429);
  });
});

describe('forgot password when mail cannot be sent', () => {
  it('answers the spec message and keeps the old password', async () => {
    const failing = await createTestApp({ mailer: { send: () => Promise.reject(new Error('SMTP down')) } });
    try {
      const { input } = await signUpOwner(failing.app);
      const { status, body } = await call(failing.app, 'POST', 'Users/forgot-password', { body: { email: input.email } });
      expect(status).toBe(502);
      expect(body.errors).toEqual([messages.emailSendingFailed]);
      expect((await call(failing.app, 'POST', 'Users/login', { body: { email: input.email, password: input.password } })).status).toBe(200);
    } finally {
      await failing.close();
    }
  });
});
