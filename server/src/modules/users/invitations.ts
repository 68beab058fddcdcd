import { mailOutbox, users } from '../../db/schema.js';
import type { Transaction } from '../../db/client.js';
import { byEmail } from './accounts.js';
import { invitationEmail } from './emails.js';
import { issuePasswordLink } from './passwordReset.js';

/** Long enough for someone who did not expect the e-mail to find it; "Forgot password" works after. */
const INVITATION_DAYS = 7;

/**
 * The account of an address someone else registered a pet to (an administrator's transfer, a
 * shelter's upload): the existing one, or a new customer account without a password whose invitation
 * to set one goes to the outbox in the caller's transaction. `reason` opens the invitation e-mail.
 */
export async function accountForInvitee(
  tx: Transaction,
  publicUrl: string,
  email: string,
  reason: string,
): Promise<{ user: typeof users.$inferSelect; invited: boolean }> {
  const [existing] = await tx.select().from(users).where(byEmail(email));
  if (existing) return { user: existing, invited: false };
  // Names are the owner's to give; the profile asks for them after the first sign-in.
  const [created] = await tx.insert(users).values({ email: email.trim(), firstName: '', lastName: '', roles: ['customer'] }).returning();
  const link = await issuePasswordLink(tx, publicUrl, created!, INVITATION_DAYS * 24 * 3600_000);
  await tx.insert(mailOutbox).values({ recipient: created!.email, ...invitationEmail(link, INVITATION_DAYS, reason) });
  return { user: created!, invited: true };
}
