import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { voidMailedLinks } from './mailedLinks.js';

/** A strong password that meets the portal's own rule, for an operator to copy once. */
const generatePassword = () => `${randomBytes(12).toString('base64url')}aA1!`;

const isAdministrator = sql`'admin' = any(${users.roles})`;

/**
 * Creates the first administrator when none exists. Without ADMIN_PASSWORD a strong password is
 * generated and returned once so it can be shown on the console; it is never stored in clear.
 */
export async function ensureAdministrator(
  db: Database,
  admin: { email: string; password: string | undefined },
): Promise<{ email: string; generatedPassword: string | null } | null> {
  const [existing] = await db.select({ id: users.id }).from(users).where(isAdministrator).limit(1);
  if (existing) return null;
  const [sameEmail] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${admin.email.toLowerCase()}`);
  if (sameEmail) {
    // The configured administrator already has an account: promote it, keep its password.
    await db.update(users).set({ roles: sql`array_append(${users.roles}, 'admin')` }).where(eq(users.id, sameEmail.id));
    return { email: admin.email, generatedPassword: null };
  }
  const generatedPassword = admin.password ? null : generatePassword();
  await db.insert(users).values({
    email: admin.email,
    passwordHash: await hash(admin.password ?? generatedPassword!),
    firstName: 'Registry',
    lastName: 'Administrator',
    roles: ['admin'],
    // The operator named the address in the configuration.
    emailVerifiedAt: new Date(),
  });
  return { email: admin.email, generatedPassword };
}

/**
 * Gives an administrator a new password from the command line, for an operator who missed the one
 * printed at first start. Links mailed before stop working; the caller ends open sessions.
 */
export async function resetAdministratorPassword(
  db: Database,
  email: string,
  password: string | undefined,
): Promise<{ userId: number; generatedPassword: string | null } | null> {
  const [admin] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isAdministrator));
  if (!admin) return null;
  const generatedPassword = password ? null : generatePassword();
  const passwordHash = await hash(password ?? generatedPassword!);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, admin.id));
    await voidMailedLinks(tx, admin.id);
  });
  return { userId: admin.id, generatedPassword };
}
