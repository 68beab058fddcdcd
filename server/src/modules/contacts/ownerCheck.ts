import { createHmac, timingSafeEqual } from 'node:crypto';
import { contactCheckRules, messages, paths, type ContactCheck, type ContactsConfirmed } from '@petreg/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';

/** How the owner was asked: each link names its way, since only the mailed one proves the address. */
export type CheckChannel = 'email' | 'sms';

export interface OwnerCheckDeps {
  db: Database;
  publicUrl: string;
  /** Signs the links, so that only a link the portal sent confirms. */
  secret: string;
}

const DAY_MS = 24 * 3600_000;
/** The largest id a PostgreSQL integer holds: a larger one in a link names nobody. */
const MAX_ID = 2_147_483_647;

/** When the e-mail was last confirmed: its mailed link followed (emailVerifiedAt), or the owner's "still how you reach me". */
export const emailConfirmedAt = sql<Date | null>`greatest(${users.emailVerifiedAt}, ${users.emailConfirmedAt})`;
/** The same for the mobile: its texted code, or a confirmation; none without a number. */
export const phoneConfirmedAt = sql<Date | null>`case when ${users.phoneNumber} is null then null else greatest(${users.phoneVerifiedAt}, ${users.phoneConfirmedAt}) end`;
/** The last time anything confirmed the owner's contacts; an account's own creation counts (they were typed then). */
export const contactsConfirmedAt = sql`greatest(${users.createdAt}, ${users.emailVerifiedAt}, ${users.emailConfirmedAt}, ${users.phoneVerifiedAt}, ${users.phoneConfirmedAt})`;

/**
 * When each of the owner's contacts was last confirmed, and whether the dashboard asks to check them;
 * read afresh each time (the dashboard's banner, the admin record), never from the user object's cache.
 */
export async function readContactCheck(db: Database, userId: number): Promise<ContactCheck> {
  const [row] = await db
    .select({
      emailConfirmedAt,
      phoneConfirmedAt,
      emailBounced: sql<boolean>`${users.emailBouncedAt} is not null`,
      stale: sql<boolean>`${contactsConfirmedAt} < now() - make_interval(months => ${contactCheckRules.staleAfterMonths})`,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw notFound(messages.notFound);
  // A raw sql column comes back as the driver gives it: a string on one driver, a Date on another.
  const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
  return { ...row, emailConfirmedAt: iso(row.emailConfirmedAt), phoneConfirmedAt: iso(row.phoneConfirmedAt) };
}

/**
 * The link names the owner, the moment they were asked and the way, signed over the e-mail and the
 * mobile it asked about: a newer ask, or a changed e-mail or number, makes it void.
 */
function signatureOf(secret: string, userId: number, askedAt: number, channel: CheckChannel, email: string, phone: string | null) {
  return createHmac('sha256', secret).update(`contacts-check:${userId}:${askedAt}:${channel}:${email.toLowerCase()}:${phone ?? ''}`).digest('base64url');
}

/** The confirmation page's address for one ask, as the e-mail or the text carries it. */
export function confirmLink(deps: Pick<OwnerCheckDeps, 'publicUrl' | 'secret'>, owner: { id: number; email: string; phoneNumber: string | null }, askedAt: Date, channel: CheckChannel) {
  const token = `${owner.id}.${askedAt.getTime()}.${channel}.${signatureOf(deps.secret, owner.id, askedAt.getTime(), channel, owner.email, owner.phoneNumber)}`;
  return `${deps.publicUrl}${paths.contactsConfirm}?${new URLSearchParams({ token })}`;
}

export type OwnerCheck = ReturnType<typeof createOwnerCheck>;

/** The owner's answer to "Is this still how we reach you?": the signed link (no sign-in), or the dashboard's button. */
export function createOwnerCheck(deps: OwnerCheckDeps & { forget: (userId: number) => void }) {
  const { db } = deps;

  /**
   * Confirms the contacts the owner was asked about. The mailed link also proves the address (as a
   * confirmation link does) and so ends a bounce; a text or the dashboard cannot vouch for a bouncing address.
   */
  async function confirmContacts(userId: number, channel: CheckChannel | 'dashboard') {
    const proven = channel === 'email' ? { emailVerifiedAt: sql`now()`, emailBouncedAt: null } : {};
    await db
      .update(users)
      .set({
        ...proven,
        emailConfirmedAt: channel === 'email' ? sql`now()` : sql`case when ${users.emailBouncedAt} is null then now() else ${users.emailConfirmedAt} end`,
        phoneConfirmedAt: sql`case when ${users.phoneNumber} is null then null else now() end`,
        contactsCheckDueAt: null,
      })
      .where(eq(users.id, userId));
    deps.forget(userId);
  }

  return {
    /** POST public/contacts/confirm: the link of the latest ask, under its lifetime, for the e-mail and mobile it named. */
    async confirmByLink(token: string): Promise<ContactsConfirmed> {
      const [idText, askedText, channel, signature, ...rest] = token.split('.');
      const id = Number(idText);
      const askedAt = Number(askedText);
      const invalid = badRequest(messages.contactsLinkInvalid);
      const wellFormed = !rest.length && Number.isInteger(id) && id > 0 && id <= MAX_ID && Number.isSafeInteger(askedAt) && !Number.isNaN(new Date(askedAt).getTime());
      if (!wellFormed || (channel !== 'email' && channel !== 'sms') || !signature) throw invalid;
      if (Date.now() - askedAt > contactCheckRules.linkLifetimeDays * DAY_MS) throw invalid;
      const [owner] = await db
        .select({ email: users.email, phoneNumber: users.phoneNumber })
        .from(users)
        .where(and(eq(users.id, id), eq(users.isActive, true), eq(users.contactsAskedAt, new Date(askedAt))));
      if (!owner) throw invalid;
      const expected = Buffer.from(signatureOf(deps.secret, id, askedAt, channel, owner.email, owner.phoneNumber));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid;
      await confirmContacts(id, channel);
      const [after] = await db.select({ emailBouncedAt: users.emailBouncedAt }).from(users).where(eq(users.id, id));
      return { channel, emailBounced: after!.emailBouncedAt !== null };
    },

    /** GET Users/contacts-check: what the dashboard's banner reads. */
    check(session: Session): Promise<ContactCheck> {
      return readContactCheck(db, session.userId);
    },

    /** POST Users/contacts/confirm: the signed-in owner answers the dashboard's banner. */
    async confirmSignedIn(session: Session): Promise<ContactCheck> {
      await confirmContacts(session.userId, 'dashboard');
      return readContactCheck(db, session.userId);
    },
  };
}
