import { hash } from '@node-rs/argon2';
import { isSameEmail, messages, normalisePhone, type AuthResult, type SignUpInput } from '@petreg/contract';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { conflict, forbidden } from '../../errors.js';
import type { SessionService } from '../../plugins/auth.js';
import { byEmail, holdsNothing, type Accounts } from './accounts.js';
import { requestEmailConfirmation } from './emailChange.js';
import type { createPasswordReset } from './passwordReset.js';
import { isAbandonedSignUp, replaceAccount } from './replacedAccounts.js';
import type { PasswordCheck } from './signIn.js';

/** A profile from a sign-in provider, already verified on the server. */
export interface VerifiedSocialProfile {
  provider: 'google' | 'facebook';
  providerUserId: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** What became of the account: its id, and the account it replaced, whose sessions end. */
interface Outcome {
  userId: number;
  replaced?: number;
}

/**
 * How an account comes to be: a sign-up with a password, or a provider's sign-in. An address counts
 * as its account's only once proven (users.emailVerifiedAt): before that, whoever proves it gets a
 * fresh account, and nothing a stranger put under the address reaches them.
 */
export function createSignUp(
  deps: { db: Database; sessions: SessionService; publicUrl: string },
  accounts: Accounts,
  passwords: PasswordCheck,
  passwordReset: ReturnType<typeof createPasswordReset>,
) {
  const { db, sessions } = deps;

  async function signedIn(outcome: Outcome, address: string): Promise<AuthResult> {
    if (outcome.replaced !== undefined) {
      await sessions.revokeAllFor(outcome.replaced);
      accounts.forget(outcome.replaced);
    }
    accounts.forget(outcome.userId);
    await passwords.rememberAddress(outcome.userId, address);
    return accounts.authResult(outcome.userId, false);
  }

  return {
    /**
     * The owner is signed in at once and mailed a link that proves the address. An address whose
     * account was closed during sign-up starts a fresh account, unless its owner had proven it:
     * then only the mailbox opens that account again (a reset link is mailed).
     */
    async signUp(input: SignUpInput, address: string): Promise<AuthResult> {
      const values = {
        email: input.email,
        passwordHash: await hash(input.password),
        firstName: input.firstName,
        lastName: input.lastName,
        phoneNumber: normalisePhone(input.phoneNumber),
        roles: ['customer'],
      };
      const outcome = await db.transaction(async (tx): Promise<Outcome | 'closed by its owner'> => {
        const [existing] = await tx.select().from(users).where(byEmail(input.email)).for('update');
        if (existing && !(await isAbandonedSignUp(tx, existing.id))) throw conflict(messages.emailTaken);
        if (existing?.emailVerifiedAt) return 'closed by its owner';
        const create = async () => {
          const [created] = await tx.insert(users).values(values).onConflictDoNothing().returning();
          // Another sign-up with the same e-mail won the race.
          if (!created) throw conflict(messages.emailTaken);
          await requestEmailConfirmation(tx, deps.publicUrl, created);
          return created.id;
        };
        return existing ? { userId: await replaceAccount(tx, existing, create), replaced: existing.id } : { userId: await create() };
      });
      if (outcome === 'closed by its owner') {
        await passwordReset.forgotPassword(input.email);
        throw conflict(messages.closedAccountLinkSent);
      }
      return signedIn(outcome, address);
    },

    /**
     * Signs in (or up) with a profile the server verified with the provider itself, which vouches
     * for the address. It joins the account of that address only when the account's owner proved
     * it too (or it has no password: an administrator opened it for the address). An unproven
     * account that holds nothing goes to the provider's user as a fresh account; one holding pets or
     * payments may be its real owner's, who never confirmed: it is never emptied, and the mailbox
     * proves it instead (a reset link, which also ends every other session).
     */
    async socialLogin(profile: VerifiedSocialProfile, address: string): Promise<AuthResult> {
      const providerId = profile.provider === 'google' ? { googleId: profile.providerUserId } : { facebookId: profile.providerUserId };
      const idColumn = profile.provider === 'google' ? users.googleId : users.facebookId;
      const outcome = await db.transaction(async (tx): Promise<Outcome | 'holds records'> => {
        const now = new Date();
        const [linked] = await tx.select().from(users).where(eq(idColumn, profile.providerUserId));
        const [user] = linked ? [linked] : await tx.select().from(users).where(byEmail(profile.email)).for('update');
        const create = async () => {
          const [created] = await tx
            .insert(users)
            .values({ email: profile.email, firstName: profile.firstName, lastName: profile.lastName, roles: ['customer'], ...providerId, emailVerifiedAt: now })
            .returning({ id: users.id });
          return created!.id;
        };
        if (!user) return { userId: await create() };
        const abandoned = await isAbandonedSignUp(tx, user.id);
        if (!user.isActive && !abandoned) throw forbidden(messages.accountDeactivated);
        if (linked || user.emailVerifiedAt || !user.passwordHash) {
          // The provider proves the address (a linked account may have moved to another one since).
          const proven = user.emailVerifiedAt ?? (isSameEmail(user.email, profile.email) ? now : null);
          await tx
            .update(users)
            .set({ ...providerId, emailVerifiedAt: proven, isActive: true, signUpAbandonedAt: null, updatedAt: now })
            .where(eq(users.id, user.id));
          return { userId: user.id };
        }
        const [empty] = await tx.select({ id: users.id }).from(users).where(and(eq(users.id, user.id), holdsNothing));
        if (!empty) return 'holds records';
        return { userId: await replaceAccount(tx, user, create), replaced: user.id };
      });
      if (outcome === 'holds records') {
        await passwordReset.forgotPassword(profile.email);
        throw conflict(messages.socialSignInLinkSent);
      }
      return signedIn(outcome, address);
    },
  };
}
