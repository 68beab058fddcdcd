import { isSameEmail } from '@petreg/contract';
import { inArray, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { inviteAccounts } from '../users/invitations.js';
import type { NewOwner } from './bulkUploadRows.js';

/** The shelter's account, when the upload opens it: the form gives only its e-mail. */
export const shelterAccount = (email: string): NewOwner => ({
  email,
  firstName: 'Shelter',
  lastName: 'Account',
  phoneNumber: null,
  address1: null,
  city: null,
  stateId: null,
  zipcode: null,
});

/** An account that exists already, as a row naming its e-mail needs it. */
export interface ExistingAccount {
  id: number;
  firstName: string;
  isActive: boolean;
  roles: string[];
}

/** The existing accounts of these lower-case e-mails, by lower-case e-mail. */
export async function findAccounts(tx: Transaction, emails: readonly string[]): Promise<Map<string, ExistingAccount>> {
  if (emails.length === 0) return new Map();
  const found = await tx
    .select({ id: users.id, email: sql<string>`lower(${users.email})`, firstName: users.firstName, isActive: users.isActive, roles: users.roles })
    .from(users)
    .where(inArray(sql`lower(${users.email})`, [...emails]));
  return new Map(found.map(({ email, ...account }) => [email, account]));
}

/**
 * Opens the accounts of new owners who get a pet, each with an invitation to choose a password that
 * names the shelter (the shelter's own account is invited without), and answers all their ids by
 * lower-case e-mail and those of the accounts it opened. An account is opened only once a row
 * registers a pet to it: a row refused never leaves an empty account.
 */
export async function openAccounts(
  tx: Transaction,
  { publicUrl, shelterEmail }: { publicUrl: string; shelterEmail: string },
  owners: readonly NewOwner[],
): Promise<{ ids: Map<string, number>; invited: number[] }> {
  if (owners.length === 0) return { ids: new Map(), invited: [] };
  // A sign-up of the same address between the look-up and here keeps its account; this one is not opened.
  const opened = await tx.insert(users).values([...owners]).onConflictDoNothing().returning({ id: users.id, email: users.email, firstName: users.firstName });
  const isShelter = (account: { email: string }) => isSameEmail(account.email, shelterEmail);
  await inviteAccounts(tx, publicUrl, opened.filter(isShelter));
  await inviteAccounts(tx, publicUrl, opened.filter((account) => !isShelter(account)), { shelter: shelterEmail });
  const ids = new Map(opened.map((account) => [account.email, account.id]));
  const raced = owners.filter((owner) => !ids.has(owner.email)).map((owner) => owner.email);
  for (const [email, account] of await findAccounts(tx, raced)) ids.set(email, account.id);
  return { ids, invited: opened.map((account) => account.id) };
}
