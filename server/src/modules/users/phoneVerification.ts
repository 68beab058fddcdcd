import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { messages, phoneCodeRules, type User } from '@petreg/contract';
import { and, count, desc, eq, gte, isNull } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { phoneCodes, users } from '../../db/schema.js';
import { AppError, badRequest } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { queueTexts } from '../texts/outbox.js';
import type { Accounts } from './accounts.js';

const HOUR_MS = 3600_000;

export interface PhoneCodeDeps {
  /** Keys the codes' hashes: a million codes are hashed in a moment, so a leaked table must not give them away. */
  secret: string;
  registryName: string;
}

const hashOf = (deps: PhoneCodeDeps, code: string) => createHmac('sha256', deps.secret).update(`phone-code:${code}`).digest('hex');
const sameHash = (a: string, b: string) => timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

/**
 * Texts a new 6-digit code to the owner's number, in the caller's transaction, unless the account
 * had its 3 codes this hour (then false). Earlier codes end: only the newest works.
 */
export async function textPhoneCode(tx: Database | Transaction, deps: PhoneCodeDeps, userId: number, phone: string): Promise<boolean> {
  const now = new Date();
  const [recent] = await tx
    .select({ codes: count() })
    .from(phoneCodes)
    .where(and(eq(phoneCodes.userId, userId), gte(phoneCodes.createdAt, new Date(now.getTime() - HOUR_MS))));
  if (recent!.codes >= phoneCodeRules.perHour) return false;
  await tx.update(phoneCodes).set({ usedAt: now }).where(and(eq(phoneCodes.userId, userId), isNull(phoneCodes.usedAt)));
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await tx.insert(phoneCodes).values({
    userId,
    phone,
    codeHash: hashOf(deps, code),
    expiresAt: new Date(now.getTime() + phoneCodeRules.lifetimeMinutes * 60_000),
    createdAt: now,
  });
  await queueTexts(tx, [
    { to: phone, kind: 'phone-code', userId, body: `${code} is your ${deps.registryName} code. It works for ${phoneCodeRules.lifetimeMinutes} minutes.` },
  ]);
  return true;
}

/** The owner proves the mobile number on the profile with the code texted to it. */
export function createPhoneVerification(deps: PhoneCodeDeps & { db: Database }, accounts: Accounts) {
  const { db } = deps;

  async function currentPhone(userId: number) {
    const [user] = await db.select({ phone: users.phoneNumber, verifiedAt: users.phoneVerifiedAt }).from(users).where(eq(users.id, userId));
    if (!user?.phone) throw badRequest(messages.phoneNumberMissing);
    if (user.verifiedAt) throw badRequest(messages.phoneAlreadyVerified);
    return user.phone;
  }

  return {
    /** POST Users/send-phone-code: a new code to the profile's number, 3 an hour at most. */
    async sendPhoneCode(session: Session): Promise<void> {
      const phone = await currentPhone(session.userId);
      const sent = await db.transaction((tx) => textPhoneCode(tx, deps, session.userId, phone));
      if (!sent) throw new AppError(429, [messages.phoneCodesTooMany]);
    },

    /**
     * POST Users/verify-phone: the newest code of the account, for the number the profile has now,
     * unused, unexpired and with fewer than 5 wrong tries, proves the number; a wrong one counts a try.
     * The code is judged under a lock on it, so guesses sent at once are counted one after another
     * and none past the fifth wrong one is judged.
     */
    async verifyPhone(session: Session, code: string): Promise<User> {
      const phone = await currentPhone(session.userId);
      const now = new Date();
      const refusal = await db.transaction(async (tx) => {
        const [latest] = await tx
          .select()
          .from(phoneCodes)
          .where(and(eq(phoneCodes.userId, session.userId), eq(phoneCodes.phone, phone)))
          .orderBy(desc(phoneCodes.createdAt), desc(phoneCodes.id))
          .limit(1)
          .for('update');
        if (!latest || latest.usedAt || latest.expiresAt <= now) return messages.phoneCodeExpired;
        if (latest.wrongTries >= phoneCodeRules.maxWrongTries) return messages.phoneCodeTooManyTries;
        if (!sameHash(latest.codeHash, hashOf(deps, code))) {
          const wrongTries = latest.wrongTries + 1;
          await tx.update(phoneCodes).set({ wrongTries }).where(eq(phoneCodes.id, latest.id));
          return wrongTries >= phoneCodeRules.maxWrongTries ? messages.phoneCodeTooManyTries : messages.phoneCodeWrong;
        }
        await tx.update(phoneCodes).set({ usedAt: now }).where(eq(phoneCodes.id, latest.id));
        // Only while the profile still has the number the code went to.
        const [user] = await tx
          .update(users)
          .set({ phoneVerifiedAt: now })
          .where(and(eq(users.id, session.userId), eq(users.phoneNumber, phone)))
          .returning({ id: users.id });
        return user ? null : messages.phoneCodeExpired;
      });
      if (refusal) throw badRequest(refusal);
      accounts.forget(session.userId);
      return accounts.loadUser(session.userId);
    },
  };
}
