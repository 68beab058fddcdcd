import { createHash } from 'node:crypto';
import { API_BASE, messages, type AuthResult, type Role, type User } from '@petreg/contract';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { imageUrl } from '../../adapters/storage/images.js';
import type { Database, DatabaseHandle } from '../../db/client.js';
import { states, users } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { cacheForgottenByChannel, type NotifiedCache } from '../../notifiedCache.js';
import type { SessionService } from '../../plugins/auth.js';

export const byEmail = (email: string) => eq(sql`lower(${users.email})`, email.toLowerCase());

/** No pet and no payment: only such an account may close itself. */
export const holdsNothing = and(
  sql`not exists (select 1 from pets where pets.user_id = ${users.id})`,
  sql`not exists (select 1 from payments where payments.user_id = ${users.id})`,
)!;

/**
 * An account its owner backed out of during sign-up (it never held a pet or a payment): the
 * e-mail counts as free, and signing up again revives the account.
 */
export const abandonedSignUp = and(isNotNull(users.signUpAbandonedAt), eq(users.isActive, false), holdsNothing)!;

/** Mailed tokens are stored only as this hash, so a database leak opens no account. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The channel the triggers of migration 0035_user_object_notify notify at commit: the account whose
 * user object a write changed (its row, its pets' standing, its paid payments; '' for all).
 */
export const userObjectChannel = 'user_object';
/**
 * How long a user object is kept without reading it again. Every instance drops it when the database
 * notifies a write that changes it, so this only bounds a change no trigger sees.
 */
const USER_OBJECT_TTL_MS = 60_000;

export type UserObjects = NotifiedCache<User>;

/** The user objects this instance keeps, by account id: current-user and token-login run on every page load. */
export const keepUserObjects = (database: Pick<DatabaseHandle, 'listen'>, log: Pick<FastifyBaseLogger, 'warn'>): Promise<UserObjects> =>
  cacheForgottenByChannel(database, log, {
    channel: userObjectChannel,
    ttlMs: USER_OBJECT_TTL_MS,
    max: 10_000,
    meanwhile: 'cannot listen for changed accounts: every page load reads its user object meanwhile',
  });

export type Accounts = ReturnType<typeof createAccounts>;

/** What every use case of the module reads: the user object, its cache, sign-in results. */
export function createAccounts(deps: { db: Database; sessions: SessionService; userObjects: UserObjects }) {
  const { db, sessions, userObjects } = deps;

  /**
   * Call after anything the user object shows (roles, profile, pets, subscriptions) changed: drops it
   * here at once; the triggers tell every instance at commit.
   */
  function forget(userId: number) {
    userObjects.forget(String(userId));
    sessions.forget(userId);
  }

  // Read whenever the object is not kept (a first page load, a change, a minute gone): built once and
  // prepared under a name, so the server plans it once per connection.
  const userRow = db
    .select({
      user: users,
      state: { abbreviation: states.abbreviation, countryAbbreviation: states.countryAbbreviation },
      haveActivePets: sql<boolean>`exists (select 1 from pets p where p.user_id = ${users.id} and p.is_active and p.deleted_at is null)`,
      haveSubscriptions: sql<boolean>`exists (select 1 from payments pm where pm.user_id = ${users.id} and pm.status = 'paid')`,
    })
    .from(users)
    .leftJoin(states, eq(states.id, users.stateId))
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('users_current');

  /** The user object of spec section 3, read in one query. */
  async function loadUser(id: number): Promise<User> {
    const key = String(id);
    const kept = await userObjects.get(key);
    if (kept) return kept;
    const ticket = userObjects.ticket();
    const [row] = await userRow.execute({ id });
    if (!row) throw notFound(messages.notFound);
    const u = row.user;
    const user: User = {
      id: u.id,
      role: u.roles as Role[],
      data: {
        // An account made by a transfer or an upload has no names until its owner gives them.
        displayName: `${u.firstName} ${u.lastName}`.trim() || u.email,
        photoUrl: imageUrl('users', u.photo),
        email: u.email,
        emailConfirmed: u.emailVerifiedAt !== null,
        shortcuts: u.shortcuts,
        haveActivePets: row.haveActivePets,
        haveSubscriptions: row.haveSubscriptions,
        subscriptionUrl: row.haveSubscriptions ? `${API_BASE}/utilities/stripe-dashboard?uid=${u.id}` : null,
        phoneNumber: u.phoneNumber,
        phoneVerified: u.phoneNumber !== null && u.phoneVerifiedAt !== null,
        firstName: u.firstName,
        lastName: u.lastName,
        address1: u.address1,
        address2: u.address2,
        city: u.city,
        zipcode: u.zipcode,
        stateId: u.stateId,
        state: row.state,
        notifyByEmail: u.notifyByEmail,
        notifyBySms: u.notifyBySms,
        textFoundReports: u.textFoundReports,
        renewalReminders: u.renewalReminders,
        chipScanReminders: u.chipScanReminders,
        isActive: u.isActive,
        recordProtected: u.recordProtectedAt !== null,
        createDate: u.createdAt.toISOString(),
        settings: u.settings,
      },
    };
    userObjects.remember(ticket, key, user);
    return user;
  }

  async function authResult(userId: number, remember: boolean): Promise<AuthResult> {
    return { token: await sessions.open(userId, remember), user: await loadUser(userId) };
  }

  async function findByEmail(email: string) {
    const [row] = await db.select().from(users).where(byEmail(email));
    return row;
  }

  return { loadUser, forget, authResult, findByEmail };
}
