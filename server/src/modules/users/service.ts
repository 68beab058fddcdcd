import { hash } from '@node-rs/argon2';
import { messages, normalisePhone, type AuthResult, type EmailExists, type SetPasswordByTokenInput, type SignUpInput } from '@petreg/contract';
import { and, eq, not } from 'drizzle-orm';
import type { Mailer } from '../../adapters/mail/index.js';
import type { FileStorage } from '../../adapters/storage/index.js';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { conflict, forbidden } from '../../errors.js';
import type { Session, SessionService } from '../../plugins/auth.js';
import { abandonedSignUp, byEmail, createAccounts, holdsNothing } from './accounts.js';
import { createEmailChange } from './emailChange.js';
import { createPasswordReset } from './passwordReset.js';
import { createProfile } from './profile.js';
import { createPasswordCheck, createSignIn } from './signIn.js';

/** A profile from a sign-in provider, already verified on the server. */
export interface VerifiedSocialProfile {
  provider: 'google' | 'facebook';
  providerUserId: string;
  email: string;
  firstName: string;
  lastName: string;
}

export type UserService = ReturnType<typeof createUserService>;

/** The users module: sign-up and sessions here, the other use cases in files of their own. */
export function createUserService(deps: {
  db: Database;
  mailer: Mailer;
  sessions: SessionService;
  storage: FileStorage;
  publicUrl: string;
  /** Keys the hashes that stand for e-mails and addresses in the sign-in counters. */
  secret: string;
}) {
  const { db, sessions } = deps;
  const accounts = createAccounts(deps);
  const passwords = createPasswordCheck(deps);
  const passwordReset = createPasswordReset(deps, accounts);
  const { loadUser, forget, authResult, findByEmail } = accounts;

  return {
    loadUser,
    forget,
    forgotPassword: passwordReset.forgotPassword,
    ...createSignIn(accounts, passwords),
    ...createProfile(deps, accounts, passwords),
    ...createEmailChange(deps, accounts),

    /** A followed reset link proves the mailbox: the address it was followed from is the owner's. */
    async setPasswordByToken(input: SetPasswordByTokenInput, address: string): Promise<void> {
      await passwords.rememberAddress(await passwordReset.setPasswordByToken(input), address);
    },

    async signUp(input: SignUpInput, address: string): Promise<AuthResult> {
      const values = {
        email: input.email,
        passwordHash: await hash(input.password),
        firstName: input.firstName,
        lastName: input.lastName,
        phoneNumber: normalisePhone(input.phoneNumber),
        roles: ['customer'],
      };
      const existing = await findByEmail(input.email);
      if (existing) {
        // Backing out of sign-up deactivates the half-made account; signing up again revives it,
        // unless it ever held a pet or a payment.
        const [revived] = await db
          .update(users)
          .set({ ...values, isActive: true, signUpAbandonedAt: null, updatedAt: new Date() })
          .where(and(eq(users.id, existing.id), abandonedSignUp))
          .returning({ id: users.id });
        if (!revived) throw conflict(messages.emailTaken);
        forget(revived.id);
        await passwords.rememberAddress(revived.id, address);
        return authResult(revived.id, false);
      }
      const [created] = await db.insert(users).values(values).onConflictDoNothing().returning({ id: users.id });
      // Another sign-up with the same e-mail won the race.
      if (!created) throw conflict(messages.emailTaken);
      await passwords.rememberAddress(created.id, address);
      return authResult(created.id, false);
    },

    /** Signs in (or up) with a profile the server verified with the provider itself. */
    async socialLogin(profile: VerifiedSocialProfile, address: string): Promise<AuthResult> {
      const idColumn = profile.provider === 'google' ? users.googleId : users.facebookId;
      const [linked] = await db.select().from(users).where(eq(idColumn, profile.providerUserId));
      let user = linked ?? (await findByEmail(profile.email));
      if (user && !linked) {
        const link = profile.provider === 'google' ? { googleId: profile.providerUserId } : { facebookId: profile.providerUserId };
        await db.update(users).set(link).where(eq(users.id, user.id));
      }
      if (!user) {
        [user] = await db
          .insert(users)
          .values({
            email: profile.email,
            firstName: profile.firstName,
            lastName: profile.lastName,
            roles: ['customer'],
            ...(profile.provider === 'google' ? { googleId: profile.providerUserId } : { facebookId: profile.providerUserId }),
          })
          .returning();
      }
      if (!user!.isActive) throw forbidden(messages.accountDeactivated);
      await passwords.rememberAddress(user!.id, address);
      return authResult(user!.id, false);
    },

    async emailExists(email: string): Promise<EmailExists> {
      const [user] = await db.select({ id: users.id }).from(users).where(and(byEmail(email), not(abandonedSignUp)));
      return user ? { id: true } : null;
    },

    async tokenLogin(session: Session): Promise<AuthResult> {
      return { token: await sessions.reissue(session), user: await loadUser(session.userId) };
    },

    /** The sign-up flow's back navigation abandons the half-made account this way. */
    async deactivate(session: Session): Promise<void> {
      const now = new Date();
      // Only a half-made account closes itself: never one that holds a pet or a payment.
      const [closed] = await db
        .update(users)
        .set({ isActive: false, signUpAbandonedAt: now, updatedAt: now })
        .where(and(eq(users.id, session.userId), holdsNothing))
        .returning({ id: users.id });
      if (!closed) throw conflict(messages.accountNotClosable);
      await sessions.revokeAllFor(session.userId);
      forget(session.userId);
    },
  };
}
