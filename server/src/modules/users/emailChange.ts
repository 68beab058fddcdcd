import { randomBytes } from 'node:crypto';
import { isSameEmail, messages, paths, type ConfirmedEmail } from '@petreg/contract';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { emailChanges, mailOutbox, users } from '../../db/schema.js';
import { badRequest, conflict } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { byEmail, hashToken, type Accounts } from './accounts.js';
import { CONFIRMATION_DAYS, confirmEmailChangeEmail, confirmSignUpEmail, emailChangedNotice, emailChangeRequestedNotice } from './emails.js';
import { voidEmailChanges, voidMailedLinks } from './mailedLinks.js';

const EMAIL_CHANGE_TTL_MS = 24 * 3600_000;

/**
 * Stores a single-use link (its hash) that proves `email` is the account's, and answers the link.
 * The account's earlier links of this kind stop working: only the newest request works.
 */
async function addressLink(tx: Transaction, publicUrl: string, userId: number, email: string, ttlMs: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await voidEmailChanges(tx, userId);
  await tx.insert(emailChanges).values({ userId, newEmail: email, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + ttlMs) });
  return `${publicUrl}${paths.confirmEmail}?${new URLSearchParams({ token })}`;
}

/**
 * Records a new e-mail for the account, to take effect when the link mailed to it is followed;
 * runs in the caller's transaction, with the mail in the outbox.
 */
export async function requestEmailChange(
  tx: Transaction,
  publicUrl: string,
  user: { id: number; firstName: string; email: string },
  newEmail: string,
): Promise<void> {
  const link = await addressLink(tx, publicUrl, user.id, newEmail, EMAIL_CHANGE_TTL_MS);
  await tx.insert(mailOutbox).values({ recipient: newEmail, ...confirmEmailChangeEmail(user.firstName, link) });
  // Told now, while the owner can still stop it: a password change ends the request.
  await tx.insert(mailOutbox).values({ recipient: user.email, ...emailChangeRequestedNotice(user.firstName, newEmail) });
}

/** Mails the account's own address a link that proves it (at sign-up), in the caller's transaction. */
export async function requestEmailConfirmation(tx: Transaction, publicUrl: string, user: { id: number; firstName: string; email: string }): Promise<void> {
  const link = await addressLink(tx, publicUrl, user.id, user.email, CONFIRMATION_DAYS * 24 * 3600_000);
  await tx.insert(mailOutbox).values({ recipient: user.email, ...confirmSignUpEmail(user.firstName, link) });
}

export function createEmailChange(deps: { db: Database; publicUrl: string }, accounts: Accounts) {
  const { db } = deps;
  return {
    /**
     * Follows a link mailed to an address: the address is proven, and when it is not the account's
     * yet the e-mail changes, and the old address is told.
     */
    async confirmEmail(token: string): Promise<ConfirmedEmail> {
      let confirmed: { userId: number; changed: boolean };
      try {
        confirmed = await db.transaction(async (tx) => {
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
          const changed = !isSameEmail(claimed.newEmail, user.email);
          // The address is proven: whatever bounced before no longer holds.
          await tx.update(users).set({ email: claimed.newEmail, emailVerifiedAt: new Date(), emailBouncedAt: null, updatedAt: new Date() }).where(eq(users.id, user.id));
          if (changed) {
            await tx.update(emailChanges).set({ tookAddressAt: new Date() }).where(eq(emailChanges.tokenHash, hashToken(token)));
            // Reset links name the old address.
            await voidMailedLinks(tx, user.id);
            await tx.insert(mailOutbox).values({ recipient: user.email, ...emailChangedNotice(user.firstName, claimed.newEmail) });
          }
          return { userId: user.id, changed };
        });
      } catch (error) {
        // A sign-up with the same address won the race between the check and the update.
        if (isUniqueViolation(error)) throw conflict(messages.emailTaken);
        throw error;
      }
      accounts.forget(confirmed.userId);
      return { changed: confirmed.changed };
    },

    /** The owner lost or never got the sign-up's link: a new one, unless the address is proven already. */
    async resendEmailConfirmation(session: Session): Promise<void> {
      await db.transaction(async (tx) => {
        const [user] = await tx.select().from(users).where(eq(users.id, session.userId));
        if (!user || user.emailVerifiedAt) return;
        await requestEmailConfirmation(tx, deps.publicUrl, user);
      });
    },
  };
}
