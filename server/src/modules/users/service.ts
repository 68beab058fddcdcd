import { type AuthResult, type EmailExists, type SetPasswordByTokenInput } from '@petreg/contract';
import { messages } from '@petreg/contract';
import { and, not, eq } from 'drizzle-orm';
import type { Mailer } from '../../adapters/mail/index.js';
import type { FileStorage } from '../../adapters/storage/index.js';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { conflict } from '../../errors.js';
import type { Session, SessionService } from '../../plugins/auth.js';
import { abandonedSignUp, byEmail, createAccounts, holdsNothing, type UserObjects } from './accounts.js';
import { createEmailChange } from './emailChange.js';
import { createPasswordReset } from './passwordReset.js';
import { createPhoneVerification } from './phoneVerification.js';
import { createProfile } from './profile.js';
import { createPasswordCheck, createSignIn } from './signIn.js';
import { createSignUp } from './signUp.js';

export type UserService = ReturnType<typeof createUserService>;

/** The users module: sessions here, the other use cases in files of their own. */
export function createUserService(deps: {
  db: Database;
  mailer: Mailer;
  sessions: SessionService;
  userObjects: UserObjects;
  storage: FileStorage;
  publicUrl: string;
  /** Keys the hashes that stand for e-mails and addresses in the sign-in counters, and for phone codes. */
  secret: string;
  /** How texts sign: "<code> is your <registry> code". */
  registryName: string;
}) {
  const { db, sessions } = deps;
  const accounts = createAccounts(deps);
  const passwords = createPasswordCheck(deps);
  const passwordReset = createPasswordReset(deps, accounts);
  const { loadUser, forget } = accounts;

  return {
    loadUser,
    forget,
    forgotPassword: passwordReset.forgotPassword,
    ...createSignUp(deps, accounts, passwords, passwordReset),
    ...createSignIn(accounts, passwords),
    ...createProfile(deps, accounts, passwords),
    ...createEmailChange(deps, accounts),
    ...createPhoneVerification(deps, accounts),

    /** A followed reset link proves the mailbox: the address it was followed from is the owner's. */
    async setPasswordByToken(input: SetPasswordByTokenInput, address: string): Promise<void> {
      const userId = await passwordReset.setPasswordByToken(input);
      forget(userId);
      await passwords.rememberAddress(userId, address);
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
