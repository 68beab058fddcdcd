import { randomBytes } from 'node:crypto';
import { messages, paths } from '@petreg/contract';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { emailChanges, mailOutbox, users } from '../../db/schema.js';
import { badRequest, conflict } from '../../errors.js';
import { byEmail, hashToken, type Accounts } from './accounts.js';
import { confirmEmailChangeEmail, emailChangedNotice, emailChangeRequestedNotice } from './emails.js';
import { voidEmailChanges, voidMailedLinks } from './mailedLinks.js';

const EMAIL_CHANGE_TTL_MS = 24 * 3600_000;

/**
 * Records a new e-mail for the account, to take effect when the link mailed to it is followed;
 * runs in the caller's transaction, with the mail in the outbox. Only the newest request works.
 */
export async function requestEmailChange(
  tx: Transaction,
  publicUrl: string,
  user: { id: number; firstName: string; email: string },
  newEmail: string,
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await voidEmailChanges(tx, user.id);
  await tx.insert(emailChanges).values({
    userId: user.id,
    newEmail,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + EMAIL_CHANGE_TTL_MS),
  });
  const link = `${publicUrl}${paths.confirmEmail}?${new URLSearchParams({ token })}`;
  await tx.insert(mailOutbox).values({ recipient: newEmail, ...confirmEmailChangeEmail(user.firstName, link) });
  // Told now, while the owner can still stop it: a password change ends the request.
  await tx.insert(mailOutbox).values({ recipient: user.email, ...emailChangeRequestedNotice(user.firstName, newEmail) });
}

export function createEmailChange(deps: { db: Database }, accounts: Accounts) {
  const { db } = deps;
  return {
    /** Follows the link mailed to the new address: the e-mail changes, and the old address is told. */
    async confirmEmail(token: string): Promise<void> {
      let userId: number;
      try {
        userId = await db.transaction(async (tx) => {
          // Claiming the token and changing the e-mail commit together, so a link works once.
          const [claimed] = await tx
            .update(emailChanges)
            .set({ usedAt: new Date() })
            .where(and(eq(emailChanges.tokenHash, hashToken(token)), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, new Date())))
            .returning({ userId: emailChanges.userId, newEmail: emailChanges.newEmail });
          if (!claimed) throw badRequest(messages.emailChangeLinkInvalid);
          const [user] = await tx.select().from(users).where(and(eq(users.id, claimed.userId), eq(users.isActive, true)));
          if (!user) throw badRequest(messages.emailChangeLinkInvalid);
          // Another account may have taken the address since the link was sent.
          const [holder] = await tx.select({ id: users.id }).from(users).where(byEmail(claimed.newEmail));
          if (holder && holder.id !== user.id) throw conflict(messages.emailTaken);
          await tx.update(users).set({ email: claimed.newEmail, updatedAt: new Date() }).where(eq(users.id, user.id));
          // Reset links name the old address.
          await voidMailedLinks(tx, user.id);
          await tx.insert(mailOutbox).values({ recipient: user.email, ...emailChangedNotice(user.firstName, claimed.newEmail) });
          return user.id;
        });
      } catch (error) {
        // A sign-up with the same address won the race between the check and the update.
        if (isUniqueViolation(error)) throw conflict(messages.emailTaken);
        throw error;
      }
      accounts.forget(userId);
    },
  };
}
