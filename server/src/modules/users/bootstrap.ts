import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';

/**
 * Creates the first administrator when none exists. Without ADMIN_PASSWORD a strong password is
 * generated and returned once so it can be shown on the console; it is never stored in clear.
 */
export async function ensureAdministrator(
  db: Database,
  admin: { email: string; password: string | undefined },
): Promise<{ email: string; generatedPassword: string | null } | null> {
  const [existing] = await db.select({ id: users.id }).from(users).where(sql`'admin' = any(${users.roles})`).limit(1);
  if (existing) return null;
  const [sameEmail] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${admin.email.toLowerCase()}`);
  if (sameEmail) {
    // The configured administrator already has an account: promote it, keep its password.
    await db.update(users).set({ roles: sql`array_append(${users.roles}, 'admin')` }).where(eq(users.id, sameEmail.id));
    return { email: admin.email, generatedPassword: null };
  }
  const generatedPassword = admin.password ? null : `${randomBytes(12).toString('base64url')}aA1!`;
  await db.insert(users).values({
    email: admin.email,
    passwordHash: await hash(admin.password ?? generatedPassword!),
    firstName: 'Registry',
    lastName: 'Administrator',
    roles: ['admin'],
  });
  return { email: admin.email, generatedPassword };
}
