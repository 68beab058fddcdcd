import { messages, type AuthResult, type BackupContact, type ConfirmedEmail, type User } from '@petreg/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailChanges, mailOutbox, users } from '../src/db/schema.js';
import { call, confirmSignUpEmail, createTestApp, readOutbox, signUpConfirmationToken, signUpOwner, validSignUp, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: 'https://registry.example.org' } });
});
afterAll(() => ctx.close());

const db = () => ctx.database.db;
const confirm = (token: string) => call<ConfirmedEmail>(ctx.app, 'POST', 'Users/confirm-email', { body: { token } });
const currentUser = async (token: string) => (await call<User>(ctx.app, 'GET', 'Users/current-user', { token })).body.result!;
const confirmations = (email: string) =>
  db().select().from(mailOutbox).where(and(eq(mailOutbox.recipient, email), eq(mailOutbox.kind, 'email-confirmation')));
const resend = (token: string, ip?: string) => call(ctx.app, 'POST', 'Users/resend-email-confirmation', { token, ip });

describe('confirming the e-mail of a sign-up', () => {
  it('mails a single-use link at sign-up, kept only as a hash; following it confirms the address', async () => {
    const owner = await signUpOwner(ctx.app);
    expect(owner.user.data.emailConfirmed).toBe(false);
    const [mail] = await confirmations(owner.input.email);
    expect(mail).toMatchObject({ subject: 'Confirm your email address', status: 'pending' });
    const link = new URL(mail!.text.match(/https:\/\/\S+/)![0]);
    expect(link.origin + link.pathname).toBe('https://registry.example.org/confirm-email');
    const token = link.searchParams.get('token')!;
    const [stored] = await db().select().from(emailChanges).where(eq(emailChanges.userId, owner.user.id));
    expect(JSON.stringify(stored)).not.toContain(token);

    const confirmed = await confirm(token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.result).toEqual({ changed: false });
    expect(await currentUser(owner.token)).toMatchObject({ data: { email: owner.input.email, emailConfirmed: true } });
    // Nothing changed, so nobody is told of a change.
    const toOwner = await db().select().from(mailOutbox).where(eq(mailOutbox.recipient, owner.input.email));
    expect(toOwner.map((m) => m.kind)).toEqual(['email-confirmation']);

    const again = await confirm(token);
    expect([again.status, again.body.errors]).toEqual([400, [messages.emailChangeLinkInvalid]]);
  });

  it('sends a new link on request, which ends the earlier one', async () => {
    const owner = await signUpOwner(ctx.app);
    const first = await signUpConfirmationToken(ctx, owner.input.email);
    expect((await call(ctx.app, 'POST', 'Users/resend-email-confirmation')).status).toBe(401);
    const sent = await resend(owner.token);
    expect([sent.status, sent.body.result]).toEqual([200, true]);
    expect(await confirmations(owner.input.email)).toHaveLength(2);
    const second = await signUpConfirmationToken(ctx, owner.input.email);
    expect(second).not.toBe(first);
    expect((await confirm(first)).status).toBe(400);
    expect((await confirm(second)).status).toBe(200);
    expect((await currentUser(owner.token)).data.emailConfirmed).toBe(true);
    // A confirmed address needs no link.
    expect((await resend(owner.token)).status).toBe(200);
    expect(await confirmations(owner.input.email)).toHaveLength(2);
  });

  it('sends at most three links an hour to one account, from any address', async () => {
    const owner = await signUpOwner(ctx.app);
    const statuses = [];
    for (const ip of ['10.8.0.1', '10.8.0.2', '10.8.0.3', '10.8.0.4']) statuses.push((await resend(owner.token, ip)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(await confirmations(owner.input.email)).toHaveLength(4);
  });

  it('refuses an expired link', async () => {
    const owner = await signUpOwner(ctx.app);
    const token = await signUpConfirmationToken(ctx, owner.input.email);
    await db().update(emailChanges).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailChanges.userId, owner.user.id));
    const { status, body } = await confirm(token);
    expect([status, body.errors]).toEqual([400, [messages.emailChangeLinkInvalid]]);
    expect((await currentUser(owner.token)).data.emailConfirmed).toBe(false);
  });
});

describe('signing up with the address of an account closed during sign-up', () => {
  /** An owner who signed up, left data behind, and backed out of the sign-up. */
  async function closedAccount({ confirmed }: { confirmed: boolean }) {
    const owner = await signUpOwner(ctx.app);
    if (confirmed) await confirmSignUpEmail(ctx, owner.input.email);
    await call(ctx.app, 'POST', 'Users/backup-contact', { token: owner.token, body: { name: 'Grandma Rose', phoneNumber: '(503) 555-0199' } });
    await call(ctx.app, 'POST', 'auth/user/update', { token: owner.token, body: { data: { settings: { loginRedirectUrl: '/client/pet' }, shortcuts: ['pets'] } } });
    await db().update(users).set({ facebookId: `fb-${owner.user.id}`, address1: '1 Old Road' }).where(eq(users.id, owner.user.id));
    expect((await call(ctx.app, 'GET', 'Users/deactivate-user', { token: owner.token })).status).toBe(200);
    return owner;
  }

  it("gives a stranger a fresh account when the owner never confirmed the address: nothing of the owner's follows", async () => {
    const owner = await closedAccount({ confirmed: false });
    const exists = await call(ctx.app, 'GET', `Users/email-exists/?email=${encodeURIComponent(owner.input.email)}`);
    expect(exists.body.result).toBeNull();

    const input = { ...validSignUp(), email: owner.input.email, firstName: 'Jo', password: 'Other#Pass2' };
    const again = await call<AuthResult>(ctx.app, 'POST', 'Users/signup', { body: input });
    expect(again.status).toBe(200);
    const { user, token } = again.body.result!;
    expect(user.id).not.toBe(owner.user.id);
    expect(user.data).toMatchObject({ email: owner.input.email, firstName: 'Jo', address1: null, settings: {}, shortcuts: [], emailConfirmed: false });
    expect((await call<BackupContact[]>(ctx.app, 'GET', 'Users/backup-contacts', { token })).body.result).toEqual([]);
    const [fresh] = await db().select().from(users).where(eq(users.id, user.id));
    expect([fresh!.facebookId, fresh!.googleId]).toEqual([null, null]);
    // The old account stays for the audit under an address that receives no mail, without the provider id.
    const [old] = await db().select().from(users).where(eq(users.id, owner.user.id));
    expect(old).toMatchObject({ isActive: false, facebookId: null, passwordHash: null, address1: '1 Old Road' });
    expect(old!.email).toMatch(/\.invalid$/);

    expect((await call(ctx.app, 'GET', 'Users/current-user', { token: owner.token })).status).toBe(401);
    expect((await call(ctx.app, 'POST', 'Users/login', { body: { email: owner.input.email, password: owner.input.password } })).status).toBe(400);
    expect((await call(ctx.app, 'POST', 'Users/login', { body: { email: owner.input.email, password: 'Other#Pass2' } })).status).toBe(200);
    // The newcomer is asked to confirm the address like any sign-up.
    expect((await confirm(await signUpConfirmationToken(ctx, owner.input.email))).status).toBe(200);
  });

  it('opens the account of an owner who confirmed the address only through a link mailed to it', async () => {
    const owner = await closedAccount({ confirmed: true });
    const mailsBefore = (await readOutbox(ctx.outboxDir)).length;
    const input = { ...validSignUp(), email: owner.input.email, firstName: 'Stranger', password: 'Other#Pass2' };
    const refused = await call(ctx.app, 'POST', 'Users/signup', { body: input });
    expect([refused.status, refused.body.errors]).toEqual([409, [messages.closedAccountLinkSent]]);
    const [unchanged] = await db().select().from(users).where(eq(users.id, owner.user.id));
    expect(unchanged).toMatchObject({ firstName: owner.input.firstName, isActive: false });
    expect((await call(ctx.app, 'POST', 'Users/login', { body: { email: owner.input.email, password: 'Other#Pass2' } })).status).toBe(400);

    // The reset link mailed to the address opens the account again, with its data.
    const mails = await readOutbox(ctx.outboxDir);
    expect(mails).toHaveLength(mailsBefore + 1);
    const link = new URL(mails.at(-1)!.text!.match(/https:\/\/\S+/)![0]);
    expect(link.pathname).toBe('/reset-password');
    const reset = await call(ctx.app, 'POST', 'Users/set-password-by-token', {
      body: { email: owner.input.email, token: link.searchParams.get('code'), password: 'Owner#Back3' },
    });
    expect(reset.status).toBe(200);
    const back = await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: owner.input.email, password: 'Owner#Back3' } });
    expect(back.status).toBe(200);
    expect(back.body.result!.user).toMatchObject({ id: owner.user.id, data: { isActive: true, firstName: owner.input.firstName } });
    const contacts = await call<BackupContact[]>(ctx.app, 'GET', 'Users/backup-contacts', { token: back.body.result!.token });
    expect(contacts.body.result!.map((c) => c.name)).toEqual(['Grandma Rose']);
  });

  it('opens an unconfirmed closed account for whoever follows a reset link mailed to its address', async () => {
    // Whoever follows a link mailed to the address is its owner: the reset opens the closed account for them.
    const owner = await closedAccount({ confirmed: false });
    await call(ctx.app, 'POST', 'Users/forgot-password', { body: { email: owner.input.email } });
    const link = new URL((await readOutbox(ctx.outboxDir)).at(-1)!.text!.match(/https:\/\/\S+/)![0]);
    const reset = await call(ctx.app, 'POST', 'Users/set-password-by-token', {
      body: { email: owner.input.email, token: link.searchParams.get('code'), password: 'Owner#Back3' },
    });
    expect(reset.status).toBe(200);
    const back = await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: owner.input.email, password: 'Owner#Back3' } });
    expect(back.body.result!.user).toMatchObject({ id: owner.user.id, data: { isActive: true, emailConfirmed: true } });
  });
});
