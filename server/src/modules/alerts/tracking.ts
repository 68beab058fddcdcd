import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { alertEmails, emailUnsubscribes } from '../../db/schema.js';

/** Apple Mail Privacy Protection loads every image of a message with this user agent, whether or not anyone reads it. */
const PRIVACY_PREFETCH_AGENT = 'Mozilla/5.0';

/** A transparent 1×1 GIF: the open pixel. */
export const openPixel = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** What the recipient of an alert e-mail does with it, without signing in: opening it, unsubscribing. */
export function createAlertTracking({ db }: { db: Database }) {
  return {
    /** Records the first open of an alert e-mail; a privacy prefetch is kept apart as an automatic open. */
    async recordOpen(token: string, userAgent: string | undefined): Promise<void> {
      const automatic = userAgent === PRIVACY_PREFETCH_AGENT;
      await db
        .update(alertEmails)
        .set(automatic ? { automaticOpenAt: new Date() } : { openedAt: new Date() })
        .where(and(eq(alertEmails.token, token), isNull(automatic ? alertEmails.automaticOpenAt : alertEmails.openedAt)));
    },

    /** The address an unsubscribe link is for; null for a token no e-mail carries. */
    async recipientOf(token: string): Promise<string | null> {
      const [row] = await db.select({ recipient: alertEmails.recipient }).from(alertEmails).where(eq(alertEmails.token, token));
      return row?.recipient ?? null;
    },

    /** One-click unsubscribe (RFC 8058): the address gets no more alert e-mails. Answers it, or null for an unknown token. */
    async unsubscribe(token: string): Promise<string | null> {
      const [row] = await db.select({ id: alertEmails.id, recipient: alertEmails.recipient }).from(alertEmails).where(eq(alertEmails.token, token));
      if (!row) return null;
      await db.insert(emailUnsubscribes).values({ email: row.recipient, alertEmailId: row.id }).onConflictDoNothing();
      return row.recipient;
    },
  };
}
