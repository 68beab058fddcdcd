import { createHmac, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { messages, type AuthResult } from '@petreg/contract';
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { knownSignInAddresses, signInAttempts } from '../../db/schema.js';
import { AppError, badRequest, forbidden } from '../../errors.js';
import type { Accounts } from './accounts.js';

const WINDOW_MS = 15 * 60_000;
/** Attempts per window on one account from one address. */
const PER_ADDRESS_MAX = 10;
/** Attempts per window on one account from all the addresses it never signed in from. */
export const PER_ACCOUNT_MAX = 10;
/** An address the owner has not signed in from for this long is a stranger's again. */
const KNOWN_ADDRESS_MS = 90 * 24 * 3600_000;

/** Verifying against this keeps a login for an unknown e-mail as slow as one for a known e-mail. */
const unknownUserHash = hash(randomBytes(16).toString('hex'));

export type PasswordCheck = ReturnType<typeof createPasswordCheck>;

/**
 * Every check of an account's password (sign-in, and the current password a profile change asks
 * for), slowed per account and per (account, address) with counters in PostgreSQL (OWASP ASVS
 * 2.2.1). The account-wide limit does not apply to an address the owner signed in from before,
 * so a stranger's guesses never lock the owner out.
 */
/** The counters' keys stand for e-mails and addresses without holding them. */
const counterKey = (secret: string, ...parts: string[]) => createHmac('sha256', secret).update(['sign-in', ...parts].join('\n')).digest('hex');

/** Lifts the account-wide limit, for an operator who has just given the account a new password. */
export async function clearAccountAttempts(db: Database, secret: string, email: string): Promise<void> {
  await db.delete(signInAttempts).where(eq(signInAttempts.key, counterKey(secret, 'account', email.toLowerCase())));
}

export function createPasswordCheck(deps: { db: Database; secret: string }) {
  const { db } = deps;
  const keyed = (...parts: string[]) => counterKey(deps.secret, ...parts);

  /** Counts one attempt under the account's key and the pair's, in one statement, and answers each one's attempts in the current window. */
  async function count(accountKey: string, pairKey: string, now: Date): Promise<{ account: number; pair: number }> {
    const windowOver = sql`${signInAttempts.windowStartedAt} <= ${new Date(now.getTime() - WINDOW_MS).toISOString()}::timestamptz`;
    const rows = await db
      .insert(signInAttempts)
      .values([accountKey, pairKey].map((key) => ({ key, attempts: 1, windowStartedAt: now })))
      .onConflictDoUpdate({
        target: signInAttempts.key,
        set: {
          attempts: sql`case when ${windowOver} then 1 else ${signInAttempts.attempts} + 1 end`,
          windowStartedAt: sql`case when ${windowOver} then ${now.toISOString()}::timestamptz else ${signInAttempts.windowStartedAt} end`,
        },
      })
      .returning({ key: signInAttempts.key, attempts: signInAttempts.attempts });
    const attemptsOf = (key: string) => rows.find((row) => row.key === key)!.attempts;
    return { account: attemptsOf(accountKey), pair: attemptsOf(pairKey) };
  }

  async function isKnownAddress(userId: number, addressHash: string, now: Date) {
    const [known] = await db
      .select({ userId: knownSignInAddresses.userId })
      .from(knownSignInAddresses)
      .where(
        and(
          eq(knownSignInAddresses.userId, userId),
          eq(knownSignInAddresses.addressHash, addressHash),
          gt(knownSignInAddresses.lastSignInAt, new Date(now.getTime() - KNOWN_ADDRESS_MS)),
        ),
      );
    return Boolean(known);
  }

  const remember = (userId: number, addressHash: string, now: Date) =>
    db
      .insert(knownSignInAddresses)
      .values({ userId, addressHash, lastSignInAt: now })
      .onConflictDoUpdate({ target: [knownSignInAddresses.userId, knownSignInAddresses.addressHash], set: { lastSignInAt: now } })
      .returning({ userId: knownSignInAddresses.userId });

  /**
   * The owner is in: remember the address, and take the attempt back from both counters; one statement,
   * whose parts commit together.
   */
  async function succeeded(userId: number, accountKey: string, pairKey: string, addressHash: string, now: Date) {
    const remembered = db.$with('remembered').as(remember(userId, addressHash, now));
    const cleared = db.$with('cleared').as(db.delete(signInAttempts).where(eq(signInAttempts.key, pairKey)).returning({ key: signInAttempts.key }));
    await db
      .with(remembered, cleared)
      .update(signInAttempts)
      .set({ attempts: sql`greatest(${signInAttempts.attempts} - 1, 0)` })
      .where(eq(signInAttempts.key, accountKey));
  }

  /** Answers whether the password is the account's (undefined for an unknown e-mail); 429 over a limit. */
  async function check(
    email: string,
    account: { id: number; passwordHash: string | null } | undefined,
    password: string,
    address: string,
  ): Promise<boolean> {
    const now = new Date();
    const name = email.toLowerCase();
    const accountKey = keyed('account', name);
    const pairKey = keyed('pair', name, address);
    const addressHash = keyed('address', address);
    // Counted before the password is checked, so parallel guesses cannot slip past the limit.
    const { account: accountAttempts, pair: pairAttempts } = await count(accountKey, pairKey, now);
    const tooMany =
      pairAttempts > PER_ADDRESS_MAX ||
      (accountAttempts > PER_ACCOUNT_MAX && !(account && (await isKnownAddress(account.id, addressHash, now))));
    if (tooMany) throw new AppError(429, [messages.tooManyRequests]);

    const matches = await verify(account?.passwordHash ?? (await unknownUserHash), password);
    if (!account || !matches) return false;
    await succeeded(account.id, accountKey, pairKey, addressHash, now);
    return true;
  }

  return {
    check,
    /**
     * Marks an address as the owner's after they proved who they are another way (signing up,
     * a provider's sign-in, a followed reset link), so a stranger's guesses cannot keep them out.
     */
    rememberAddress: async (userId: number, address: string) => {
      await remember(userId, keyed('address', address), new Date());
    },
  };
}

/** Sign-in with e-mail and password. */
export function createSignIn(accounts: Accounts, passwords: PasswordCheck) {
  return {
    async login(email: string, password: string, remember: boolean, address: string): Promise<AuthResult> {
      const user = await accounts.findByEmail(email);
      if (!(await passwords.check(email, user, password, address)) || !user) throw badRequest(messages.invalidCredentials);
      if (!user.isActive) throw forbidden(messages.accountDeactivated);
      return accounts.authResult(user.id, remember);
    },
  };
}

/** Drops counters whose window is over, so the table holds only what can still block someone. */
export async function sweepSignInAttempts(db: Database, now = new Date()): Promise<void> {
  // A counter a sign-in holds is left to the next sweep: a sign-in locks its two counters in one
  // statement, and a sweep that waited for one of them while holding the other would deadlock it.
  const over = db
    .select({ key: signInAttempts.key })
    .from(signInAttempts)
    .where(lt(signInAttempts.windowStartedAt, new Date(now.getTime() - WINDOW_MS)))
    .for('update', { skipLocked: true });
  await db.delete(signInAttempts).where(inArray(signInAttempts.key, over));
}
