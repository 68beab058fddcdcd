import { and, eq, isNull } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { emailChanges, passwordResetTokens } from '../../db/schema.js';

/** Ends every reset link of the user that is still open: only the newest link, or none, may work. */
export async function voidResetLinks(db: Database | Transaction, userId: number) {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

/** Ends every e-mail change of the user still waiting for its link to be followed. */
export async function voidEmailChanges(db: Database | Transaction, userId: number) {
  await db.update(emailChanges).set({ usedAt: new Date() }).where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt)));
}

/**
 * The password or the e-mail changed: every link mailed before ends, reset links and e-mail changes
 * alike, so whoever knew the old password cannot finish a change they started with it.
 */
export async function voidMailedLinks(db: Database | Transaction, userId: number) {
  await voidResetLinks(db, userId);
  await voidEmailChanges(db, userId);
}

/**
 * A mailed text with the codes of its links hidden (reset, invitation and e-mail confirmation links
 * carry them as `code` or `token`; an alert's unsubscribe address, preferences link and open pixel name
 * its recipient's token in the path): what the mail log shows, and all the outbox keeps of an e-mail once sent, so
 * neither the log nor the database holds a working link.
 */
export const hideLinkCodes = (text: string) =>
  text
    .replace(/((?:[?&]|&amp;|&#38;)(?:code|token)=)[^&\s"'<>]+/g, '$1[hidden]')
    .replace(/(\/email\/(?:unsubscribe|open|preferences)\/)[^/?#\s"'<>]+?(\.gif)?(?=[/?#\s"'<>]|$)/g, '$1[hidden]$2');
