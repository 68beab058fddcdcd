import { randomBytes } from 'node:crypto';
import { paths } from '@petreg/contract';
import type { Transaction } from '../../db/client.js';
import { mailOutbox, passwordResetTokens, users } from '../../db/schema.js';
import { byEmail, hashToken } from './accounts.js';
import { INVITATION_DAYS, invitationEmail, type InvitationOrigin } from './emails.js';

/**
 * Invites the owners of accounts an administrator opened (no password yet) to choose a password:
 * a reset-password link, the same single-use token the forgot-password mail carries but longer
 * lived, mailed through the outbox in the caller's transaction, so no account is left without it.
 * The link marks an invitation: the page asks for the names and mobile phone the profile needs.
 * `origin`: why the account was opened, named in the invitation.
 */
export async function inviteAccounts(
  tx: Transaction,
  publicUrl: string,
  accounts: readonly { id: number; email: string; firstName: string }[],
  origin?: InvitationOrigin,
) {
  if (accounts.length === 0) return;
  const links = await invitationLinks(tx, accounts);
  await tx.insert(mailOutbox).values(
    links.map(({ account, path }) => ({ recipient: account.email, ...invitationEmail(account.firstName, `${publicUrl}${path}`, origin) })),
  );
}

/** The set-password page of each account's invitation (its path and query), with its single-use token stored. */
async function invitationLinks<A extends { id: number; email: string }>(tx: Transaction, accounts: readonly A[]) {
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 3600_000);
  const links = accounts.map((account) => ({ account, token: randomBytes(32).toString('base64url') }));
  await tx.insert(passwordResetTokens).values(links.map(({ account, token }) => ({ userId: account.id, tokenHash: hashToken(token), expiresAt })));
  return links.map(({ account, token }) => ({
    account,
    path: `${paths.resetPassword}?${new URLSearchParams({ email: account.email, code: token, invitation: '1' })}`,
  }));
}

/** A new customer account without a password or names, for an address an administrator or a transfer gives a pet to. */
async function openAccount(tx: Transaction, email: string) {
  const [created] = await tx.insert(users).values({ email: email.trim(), firstName: '', lastName: '', roles: ['customer'] }).returning();
  return created!;
}

/**
 * The account made when a transfer offer's addressee, who had none, accepts from the mailed link:
 * the link proved the address, so the invitation's set-password page (which asks the names and mobile
 * phone the profile needs) is answered at once rather than mailed.
 */
export async function openInvitedAccount(tx: Transaction, email: string) {
  const user = await openAccount(tx, email);
  const [link] = await invitationLinks(tx, [user]);
  return { user, setPasswordPath: link!.path };
}

/**
 * The account of an address an administrator gives a pet to (a transfer): the existing one, or a new
 * customer account without a password or names (its owner gives them with the password), invited in
 * the caller's transaction with the pet's name and the account it comes from.
 */
export async function accountForInvitee(
  tx: Transaction,
  publicUrl: string,
  email: string,
  transfer: { petName: string; from: string },
): Promise<{ user: typeof users.$inferSelect; invited: boolean }> {
  const [existing] = await tx.select().from(users).where(byEmail(email));
  if (existing) return { user: existing, invited: false };
  const created = await openAccount(tx, email);
  await inviteAccounts(tx, publicUrl, [created], { transfer });
  return { user: created, invited: true };
}
