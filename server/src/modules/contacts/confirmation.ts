import { createHmac, timingSafeEqual } from 'node:crypto';
import { backupContactConfirmationsPerHour, oneLine, paths } from '@petreg/contract';
import { and, count, eq, gte, isNull } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { backupContacts, textOutbox, users } from '../../db/schema.js';
import { queueTexts } from '../texts/outbox.js';

/** How long the texted link works, and a reply YES to it. */
const LINK_LIFETIME_MS = 7 * 24 * 3600_000;
const HOUR_MS = 3600_000;
/** The most of the owner's first name a confirmation text carries. */
const OWNER_NAME_MAX = 20;

export interface ConfirmationDeps {
  publicUrl: string;
  /** Signs the links, so that only the texted one confirms. */
  secret: string;
  registryName: string;
}

/**
 * The link names the contact and the moment it was asked, signed: a new request (a changed number, a
 * resend) makes earlier links void, and once confirmed the link has nothing left to do.
 */
const signatureOf = (deps: ConfirmationDeps, id: number, askedAt: number, phone: string) =>
  createHmac('sha256', deps.secret).update(`backup-contact:${id}:${askedAt}:${phone}`).digest('base64url');

function linkToken(deps: ConfirmationDeps, id: number, askedAt: Date, phone: string) {
  return `${id}.${askedAt.getTime()}.${signatureOf(deps, id, askedAt.getTime(), phone)}`;
}

/**
 * Texts the contact a request to confirm the number, in the caller's transaction, unless the account
 * sent its 5 this hour (then false, and the contact stays unasked). The contact's number is then
 * unconfirmed until the reply or the link.
 */
export async function askToConfirm(tx: Database | Transaction, deps: ConfirmationDeps, contact: { id: number; userId: number; phoneNumber: string }) {
  const now = new Date();
  const [recent] = await tx
    .select({ texts: count() })
    .from(textOutbox)
    .where(and(eq(textOutbox.userId, contact.userId), eq(textOutbox.kind, 'backup-contact-confirmation'), gte(textOutbox.createdAt, new Date(now.getTime() - HOUR_MS))));
  if (recent!.texts >= backupContactConfirmationsPerHour) return false;
  const [owner] = await tx.select({ firstName: users.firstName }).from(users).where(eq(users.id, contact.userId));
  await tx.update(backupContacts).set({ phoneConfirmedAt: null, confirmationSentAt: now }).where(eq(backupContacts.id, contact.id));
  const link = `${deps.publicUrl}${paths.backupContactConfirm}?token=${linkToken(deps, contact.id, now, contact.phoneNumber)}`;
  // The text goes to any number the owner types: only the first word of the first name, so an
  // account's name carries no message of its own. An account made by a transfer or an upload may have none yet.
  const who = oneLine(owner?.firstName ?? '').trim().split(/\s+/)[0]!.slice(0, OWNER_NAME_MAX) || 'A pet owner';
  await queueTexts(tx, [
    {
      to: contact.phoneNumber,
      kind: 'backup-contact-confirmation',
      userId: contact.userId,
      body: `${who} added you as a backup contact for their pets on ${deps.registryName}. Reply YES to confirm, or open ${link}`,
    },
  ]);
  return true;
}

/** Follows a texted link: confirms its contact's number once, while it is the latest request and under a week old. */
export async function confirmByLink(db: Database, deps: ConfirmationDeps, token: string): Promise<boolean> {
  const [idText, askedText, signature, ...rest] = token.split('.');
  const id = Number(idText);
  const askedAt = Number(askedText);
  if (rest.length || !Number.isSafeInteger(id) || !Number.isSafeInteger(askedAt) || !signature) return false;
  if (Date.now() - askedAt > LINK_LIFETIME_MS) return false;
  const [contact] = await db
    .select({ phoneNumber: backupContacts.phoneNumber })
    .from(backupContacts)
    .where(and(eq(backupContacts.id, id), isNull(backupContacts.deletedAt), eq(backupContacts.confirmationSentAt, new Date(askedAt))));
  if (!contact) return false;
  const expected = Buffer.from(signatureOf(deps, id, askedAt, contact.phoneNumber));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  const confirmed = await db
    .update(backupContacts)
    .set({ phoneConfirmedAt: new Date() })
    .where(and(eq(backupContacts.id, id), isNull(backupContacts.phoneConfirmedAt), isNull(backupContacts.deletedAt), eq(backupContacts.confirmationSentAt, new Date(askedAt))))
    .returning({ id: backupContacts.id });
  return confirmed.length > 0;
}

/** A reply YES from the number: every live contact with it that was asked to confirm in the last week (the link's lifetime) is confirmed. */
export async function confirmByReply(db: Database, phone: string): Promise<number> {
  const now = Date.now();
  const confirmed = await db
    .update(backupContacts)
    .set({ phoneConfirmedAt: new Date(now) })
    .where(
      and(
        eq(backupContacts.phoneNumber, phone),
        isNull(backupContacts.deletedAt),
        isNull(backupContacts.phoneConfirmedAt),
        gte(backupContacts.confirmationSentAt, new Date(now - LINK_LIFETIME_MS)),
      ),
    )
    .returning({ id: backupContacts.id });
  return confirmed.length;
}
