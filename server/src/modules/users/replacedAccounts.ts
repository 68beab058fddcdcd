import { and, eq, isNull } from 'drizzle-orm';
import { recordAudit } from '../../db/audit.js';
import type { Transaction } from '../../db/client.js';
import { pets, users } from '../../db/schema.js';
import { removePet } from '../pets/removal.js';
import { abandonedSignUp } from './accounts.js';
import { voidMailedLinks } from './mailedLinks.js';

type Account = typeof users.$inferSelect;

/** A sign-up the owner backed out of (the account never held a pet or a payment). */
export async function isAbandonedSignUp(tx: Transaction, userId: number): Promise<boolean> {
  const [row] = await tx.select({ id: users.id }).from(users).where(and(eq(users.id, userId), abandonedSignUp));
  return Boolean(row);
}

/** The address a replaced account keeps: `.invalid` never receives mail, and the id keeps it unique. */
const replacedEmail = (userId: number) => `replaced-${userId}@replaced.invalid`;

/**
 * Gives the address of an account nobody proved to a fresh account made by `create` (whoever now
 * proves the address, or signs up after its holder backed out): nothing of the old account follows.
 * The old one keeps its rows for the audit, switched off under an address that receives no mail,
 * without password, provider ids or open links; its pets are removed (soft delete), so the lookup
 * no longer names the address. The caller ends its sessions once this commits. Answers the new id.
 */
export async function replaceAccount(tx: Transaction, old: Account, create: () => Promise<number>): Promise<number> {
  const now = new Date();
  const detached = { email: replacedEmail(old.id), passwordHash: null, googleId: null, facebookId: null, isActive: false, updatedAt: now };
  await tx.update(users).set(detached).where(eq(users.id, old.id));
  await voidMailedLinks(tx, old.id);
  const newId = await create();
  const held = await tx.select({ id: pets.id }).from(pets).where(and(eq(pets.userId, old.id), isNull(pets.deletedAt)));
  for (const pet of held) await removePet(tx, pet.id, newId);
  await recordAudit(tx, {
    actorUserId: newId,
    action: 'account.replace',
    entity: 'user',
    entityId: old.id,
    before: { email: old.email, googleId: old.googleId, facebookId: old.facebookId, isActive: old.isActive },
    after: { email: detached.email, isActive: false, replacedBy: newId },
  });
  return newId;
}
