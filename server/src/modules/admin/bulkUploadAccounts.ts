import { inArray, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { inviteAccounts } from '../users/invitations.js';
import type { CheckedPetRow, NewOwner } from './bulkUploadRows.js';

/** The shelter's account, when the upload opens it: the form gives only its e-mail. */
const shelterAccount = (email: string): NewOwner => ({
  email,
  firstName: 'Shelter',
  lastName: 'Account',
  phoneNumber: null,
  address1: null,
  city: null,
  stateId: null,
  zipcode: null,
});

/** Account ids by lower-case e-mail, and the accounts this chunk opened. */
export interface ChunkAccounts {
  ids: Map<string, number>;
  invited: number[];
}

/**
 * The accounts a chunk of good rows registers pets to: their owners' and, for rows naming no owner,
 * the shelter's. An e-mail without an account gets one, from the first row that describes its owner
 * fully, and an invitation to choose a password; an existing account is used as it is (a file never
 * changes anyone's profile).
 */
export async function chunkAccounts(tx: Transaction, publicUrl: string, shelterEmail: string, rows: readonly CheckedPetRow[]): Promise<ChunkAccounts> {
  const wanted = new Map<string, NewOwner | null>();
  for (const row of rows) {
    const email = row.ownerEmail ?? shelterEmail;
    const described = row.ownerEmail ? row.newOwner : shelterAccount(shelterEmail);
    if (!wanted.get(email)) wanted.set(email, described);
  }
  if (wanted.size === 0) return { ids: new Map(), invited: [] };
  const find = async (emails: string[]) =>
    tx
      .select({ id: users.id, email: sql<string>`lower(${users.email})` })
      .from(users)
      .where(inArray(sql`lower(${users.email})`, emails));
  const ids = new Map((await find([...wanted.keys()])).map((u) => [u.email, u.id]));
  const opening = [...wanted.values()].filter((owner): owner is NewOwner => owner !== null && !ids.has(owner.email));
  if (opening.length === 0) return { ids, invited: [] };
  // A sign-up of the same address between the look-up and here keeps its account; this one is not opened.
  const opened = await tx.insert(users).values(opening).onConflictDoNothing().returning({ id: users.id, email: users.email, firstName: users.firstName });
  await inviteAccounts(tx, publicUrl, opened);
  for (const account of opened) ids.set(account.email, account.id);
  const raced = opening.filter((owner) => !ids.has(owner.email)).map((owner) => owner.email);
  if (raced.length > 0) for (const u of await find(raced)) ids.set(u.email, u.id);
  return { ids, invited: opened.map((account) => account.id) };
}
