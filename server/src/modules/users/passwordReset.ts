import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { messages, normalisePhone, paths, type SetPasswordByTokenInput } from '@petreg/contract';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Mailer } from '../../adapters/mail/index.js';
import type { Database } from '../../db/client.js';
import { mailOutbox, passwordResetTokens, users } from '../../db/schema.js';
import { AppError, badRequest } from '../../errors.js';
import type { SessionService } from '../../plugins/auth.js';
import { hashToken, type Accounts } from './accounts.js';
import { resetPasswordEmail } from './emails.js';
import { hideLinkCodes, voidMailedLinks, voidResetLinks } from './mailedLinks.js';

const RESET_TOKEN_TTL_MS = 3600_000;

export function createPasswordReset(
  deps: { db: Database; mailer: Mailer; sessions: SessionService; publicUrl: string },
  accounts: Accounts,
) {
  const { db, mailer, sessions } = deps;
  return {
    /**
     * Mails a single-use reset link; answers the same whether or not the account exists. An account
     * closed during sign-up gets one too: following it opens the account again.
     */
    async forgotPassword(email: string): Promise<void> {
      const user = await accounts.findByEmail(email);
      if (!user || !(user.isActive || user.signUpAbandonedAt)) return;
      const token = randomBytes(32).toString('base64url');
      await db.transaction(async (tx) => {
        await voidResetLinks(tx, user.id);
        await tx.insert(passwordResetTokens).values({
          userId: user.id,
          tokenHash: hashToken(token),
          expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
        });
      });
      const link = `${deps.publicUrl}${paths.resetPassword}?${new URLSearchParams({ email: user.email, code: token })}`;
      const resetEmail = resetPasswordEmail(user.firstName, link);
      try {
        await mailer.send({ to: user.email, ...resetEmail });
      } catch {
        throw new AppError(502, [messages.emailSendingFailed]);
      }
      // Sent at once (the form answers whether it went); the mail log still lists it, without its code.
      await db.insert(mailOutbox).values({
        recipient: user.email,
        ...resetEmail,
        text: hideLinkCodes(resetEmail.text),
        html: hideLinkCodes(resetEmail.html),
        status: 'sent',
        attempts: 1,
        sentAt: new Date(),
      });
    },

    /** Answers the account whose password changed: its address is proven, and open again if it was closed during sign-up. */
    async setPasswordByToken(input: SetPasswordByTokenInput): Promise<number> {
      const passwordHash = await hash(input.password);
      const userId = await db.transaction(async (tx) => {
        // Claiming the token and changing the password commit together, so a token works once.
        const [claimed] = await tx
          .update(passwordResetTokens)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(passwordResetTokens.tokenHash, hashToken(input.token)),
              isNull(passwordResetTokens.usedAt),
              gt(passwordResetTokens.expiresAt, new Date()),
              sql`${passwordResetTokens.userId} = (select id from users where lower(email) = ${input.email.toLowerCase()} and (is_active or sign_up_abandoned_at is not null))`,
            ),
          )
          .returning({ userId: passwordResetTokens.userId });
        if (!claimed) throw badRequest(messages.resetLinkInvalid);
        const { firstName, lastName, phoneNumber } = input;
        const [account] = await tx.select({ firstName: users.firstName }).from(users).where(eq(users.id, claimed.userId));
        // An account a transfer opened has no names: its owner gives them, and a phone, with the first password
        // (the claim is undone with the refusal, so the link still works).
        if (!account!.firstName && !(firstName && lastName && phoneNumber)) throw badRequest(messages.invitationDetailsRequired);
        const details = {
          ...(firstName && { firstName }),
          ...(lastName && { lastName }),
          ...(phoneNumber && { phoneNumber: normalisePhone(phoneNumber) }),
        };
        const now = new Date();
        await tx
          .update(users)
          .set({ ...details, passwordHash, emailVerifiedAt: now, emailBouncedAt: null, isActive: true, signUpAbandonedAt: null, updatedAt: now })
          .where(eq(users.id, claimed.userId));
        await voidMailedLinks(tx, claimed.userId);
        return claimed.userId;
      });
      await sessions.revokeAllFor(userId);
      // The names and phone may have changed with the password.
      accounts.forget(userId);
      return userId;
    },
  };
}
