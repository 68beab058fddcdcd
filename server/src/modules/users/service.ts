import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import {
  API_BASE,
  messages,
  normalisePhone,
  paths,
  type AuthResult,
  type ChangePasswordInput,
  type Role,
  type SetPasswordByTokenInput,
  type SignUpInput,
  type User,
} from '@petreg/contract';
import type { z } from 'zod';
import type { profileSchema, userSettingsSchema } from '@petreg/contract';
import { and, eq, gt, isNotNull, isNull, not, sql } from 'drizzle-orm';
import type { Mailer } from '../../adapters/mail/index.js';
import { imageFolders, imageUrl, isStoredImageName, resolveImageField } from '../../adapters/storage/images.js';
import type { FileStorage } from '../../adapters/storage/index.js';
import { recordAudit } from '../../db/audit.js';
import type { Database } from '../../db/client.js';
import { passwordResetTokens, states, users } from '../../db/schema.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { RecentCache } from '../../recent.js';
import { mayActFor, type Session, type SessionService } from '../../plugins/auth.js';
import { resetPasswordEmail } from './emails.js';

const RESET_TOKEN_TTL_MS = 3600_000;

/** Verifying against this keeps a login for an unknown e-mail as slow as one for a known e-mail. */
const unknownUserHash = hash(randomBytes(16).toString('hex'));

const byEmail = (email: string) => eq(sql`lower(${users.email})`, email.toLowerCase());

/** No pet and no payment: only such an account may close itself. */
const holdsNothing = and(
  sql`not exists (select 1 from pets where pets.user_id = ${users.id})`,
  sql`not exists (select 1 from payments where payments.user_id = ${users.id})`,
)!;

/**
 * An account its owner backed out of during sign-up (it never held a pet or a payment): the
 * e-mail counts as free, and signing up again revives the account.
 */
const abandonedSignUp = and(isNotNull(users.signUpAbandonedAt), eq(users.isActive, false), holdsNothing)!;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A profile from a sign-in provider, already verified on the server. */
export interface VerifiedSocialProfile {
  provider: 'google' | 'facebook';
  providerUserId: string;
  email: string;
  firstName: string;
  lastName: string;
}

export type UserService = ReturnType<typeof createUserService>;

export function createUserService(deps: {
  db: Database;
  mailer: Mailer;
  sessions: SessionService;
  storage: FileStorage;
  publicUrl: string;
}) {
  const { db, mailer, sessions } = deps;

  // current-user and token-login run on every page load; the object is kept briefly, dropped on change.
  const recentUsers = new RecentCache<number, User>(5000, 10_000);

  /** Call after anything the user object shows (roles, profile, pets, subscriptions) changed. */
  function forget(userId: number) {
    recentUsers.delete(userId);
    sessions.forget(userId);
  }

  /** The user object of spec section 3, read in one query. */
  async function loadUser(id: number): Promise<User> {
    const recent = recentUsers.get(id);
    if (recent) return recent;
    const [row] = await db
      .select({
        user: users,
        state: { abbreviation: states.abbreviation, countryAbbreviation: states.countryAbbreviation },
        haveActivePets: sql<boolean>`exists (select 1 from pets p where p.user_id = ${users.id} and p.is_active and p.deleted_at is null)`,
        haveSubscriptions: sql<boolean>`exists (select 1 from payments pm where pm.user_id = ${users.id} and pm.status = 'paid')`,
      })
      .from(users)
      .leftJoin(states, eq(states.id, users.stateId))
      .where(eq(users.id, id));
    if (!row) throw notFound(messages.notFound);
    const u = row.user;
    const user: User = {
      id: u.id,
      role: u.roles as Role[],
      data: {
        displayName: `${u.firstName} ${u.lastName}`.trim(),
        photoUrl: imageUrl('users', u.photo),
        email: u.email,
        shortcuts: u.shortcuts,
        haveActivePets: row.haveActivePets,
        haveSubscriptions: row.haveSubscriptions,
        subscriptionUrl: row.haveSubscriptions ? `${API_BASE}/utilities/stripe-dashboard?uid=${u.id}` : null,
        phoneNumber: u.phoneNumber,
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
        isActive: u.isActive,
        createDate: u.createdAt.toISOString(),
        settings: u.settings,
      },
    };
    recentUsers.set(id, user);
    return user;
  }

  async function authResult(userId: number, remember: boolean): Promise<AuthResult> {
    return { token: await sessions.open(userId, remember), user: await loadUser(userId) };
  }

  async function findByEmail(email: string) {
    const [row] = await db.select().from(users).where(byEmail(email));
    return row;
  }

  return {
    loadUser,
    forget,

    async signUp(input: SignUpInput): Promise<AuthResult> {
      const values = {
        email: input.email,
        passwordHash: await hash(input.password),
        firstName: input.firstName,
        lastName: input.lastName,
        phoneNumber: normalisePhone(input.phoneNumber),
        roles: ['customer'],
      };
      const existing = await findByEmail(input.email);
      if (existing) {
        // Backing out of sign-up deactivates the half-made account; signing up again revives it,
        // unless it ever held a pet or a payment.
        const [revived] = await db
          .update(users)
          .set({ ...values, isActive: true, signUpAbandonedAt: null, updatedAt: new Date() })
          .where(and(eq(users.id, existing.id), abandonedSignUp))
          .returning({ id: users.id });
        if (!revived) throw conflict(messages.emailTaken);
        forget(revived.id);
        return authResult(revived.id, false);
      }
      const [created] = await db.insert(users).values(values).onConflictDoNothing().returning({ id: users.id });
      // Another sign-up with the same e-mail won the race.
      if (!created) throw conflict(messages.emailTaken);
      return authResult(created.id, false);
    },

    async login(email: string, password: string, remember: boolean): Promise<AuthResult> {
      const user = await findByEmail(email);
      const passwordHash = user?.passwordHash ?? (await unknownUserHash);
      const matches = await verify(passwordHash, password);
      if (!user || !matches) throw badRequest(messages.invalidCredentials);
      if (!user.isActive) throw forbidden(messages.accountDeactivated);
      return authResult(user.id, remember);
    },

    /** Signs in (or up) with a profile the server verified with the provider itself. */
    async socialLogin(profile: VerifiedSocialProfile): Promise<AuthResult> {
      const idColumn = profile.provider === 'google' ? users.googleId : users.facebookId;
      const [linked] = await db.select().from(users).where(eq(idColumn, profile.providerUserId));
      let user = linked ?? (await findByEmail(profile.email));
      if (user && !linked) {
        const link = profile.provider === 'google' ? { googleId: profile.providerUserId } : { facebookId: profile.providerUserId };
        await db.update(users).set(link).where(eq(users.id, user.id));
      }
      if (!user) {
        [user] = await db
          .insert(users)
          .values({
            email: profile.email,
            firstName: profile.firstName,
            lastName: profile.lastName,
            roles: ['customer'],
            ...(profile.provider === 'google' ? { googleId: profile.providerUserId } : { facebookId: profile.providerUserId }),
          })
          .returning();
      }
      if (!user!.isActive) throw forbidden(messages.accountDeactivated);
      return authResult(user!.id, false);
    },

    async emailExists(email: string): Promise<{ id: number } | null> {
      const [user] = await db.select({ id: users.id }).from(users).where(and(byEmail(email), not(abandonedSignUp)));
      return user ?? null;
    },

    /** Mails a single-use reset link; answers the same whether or not the account exists. */
    async forgotPassword(email: string): Promise<void> {
      const user = await findByEmail(email);
      if (!user || !user.isActive) return;
      const token = randomBytes(32).toString('base64url');
      await db.insert(passwordResetTokens).values({
        userId: user.id,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
      });
      const link = `${deps.publicUrl}${paths.resetPassword}?${new URLSearchParams({ email: user.email, code: token })}`;
      try {
        await mailer.send({ to: user.email, ...resetPasswordEmail(user.firstName, link) });
      } catch {
        throw new AppError(502, [messages.emailSendingFailed]);
      }
    },

    async setPasswordByToken(input: SetPasswordByTokenInput): Promise<void> {
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
              sql`${passwordResetTokens.userId} = (select id from users where lower(email) = ${input.email.toLowerCase()} and is_active)`,
            ),
          )
          .returning({ userId: passwordResetTokens.userId });
        if (!claimed) throw badRequest(messages.resetLinkInvalid);
        await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, claimed.userId));
        return claimed.userId;
      });
      await sessions.revokeAllFor(userId);
    },

    async tokenLogin(session: Session): Promise<AuthResult> {
      return { token: await sessions.reissue(session), user: await loadUser(session.userId) };
    },

    async updateProfile(session: Session, id: number, input: z.output<typeof profileSchema>): Promise<User> {
      if (!mayActFor(session, id)) throw forbidden(messages.forbidden);
      const [current] = await db.select().from(users).where(eq(users.id, id));
      if (!current) throw notFound(messages.notFound);
      const existing = await findByEmail(input.email);
      if (existing && existing.id !== id) throw conflict(messages.emailTaken);
      const { photo, ...fields } = input;
      await db
        .update(users)
        .set({
          ...fields,
          phoneNumber: input.phoneNumber ? normalisePhone(input.phoneNumber) : null,
          photo: photo === undefined ? current.photo : await resolveImageField(deps.storage, imageFolders.users, photo, current.photo),
          updatedAt: new Date(),
        })
        .where(eq(users.id, id));
      if (id !== session.userId) {
        const { passwordHash: _secret, ...before } = current;
        await recordAudit(db, { actorUserId: session.userId, action: 'update', entity: 'user', entityId: id, before, after: fields });
      }
      forget(id);
      return loadUser(id);
    },

    async image(name: string): Promise<Buffer | null> {
      return isStoredImageName(name) ? deps.storage.get(imageFolders.users, name) : null;
    },

    async changePassword(session: Session, input: ChangePasswordInput): Promise<void> {
      const [user] = await db.select().from(users).where(eq(users.id, session.userId));
      if (!user?.passwordHash || !(await verify(user.passwordHash, input.currentPassword))) {
        throw badRequest(messages.currentPasswordWrong);
      }
      await db
        .update(users)
        .set({ passwordHash: await hash(input.newPassword), updatedAt: new Date() })
        .where(eq(users.id, user.id));
      // A stolen token must not outlive the password it was issued under.
      await sessions.revokeAllFor(user.id, { except: session.sessionId });
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

    async updateSettings(session: Session, input: z.output<typeof userSettingsSchema>): Promise<User> {
      await db
        .update(users)
        .set({ settings: input.data.settings, shortcuts: input.data.shortcuts, updatedAt: new Date() })
        .where(eq(users.id, session.userId));
      forget(session.userId);
      return loadUser(session.userId);
    },
  };
}
