import { randomUUID } from 'node:crypto';
import { isSameEmail, messages, type PetRegistration, type PetUploadColumn, type PetUploadStatus } from '@petreg/contract';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { CsvRowResult } from '../../csvFiles.js';
import type { Transaction } from '../../db/client.js';
import { chips, mailOutbox, petBreeds, pets, users } from '../../db/schema.js';
import { createShortLinks } from '../public/shortLinks.js';
import { findAccounts, openAccounts, shelterAccount, type ExistingAccount } from './bulkUploadAccounts.js';
import { petsRegisteredByShelterEmail, petsRegisteredToShelterEmail } from './emails.js';
import { rowReason, type CheckedPetRow, type NewOwner } from './bulkUploadRows.js';

export type PetRowResult = CsvRowResult<PetUploadColumn, PetUploadStatus>;

/**
 * What the file's pets already are, and become as its rows are walked: who holds each chip, and
 * how many pets each owner had before the upload by name, species and date of birth (how a pet
 * without a chip is recognised when the same file comes again). Owners are known by lower-case
 * e-mail, so a row is decided before its owner's account is opened.
 */
export interface Registry {
  /** Chip number to the e-mail of the account holding it; null when its pet was removed (the number stays taken). */
  chipHolders: Map<string, string | null>;
  /** Pets without a chip's key to how many such pets the owner had before this upload. */
  petsBefore: Map<string, number>;
  /** `${owner} ${lower-case name}` pairs whose pets before the upload are in petsBefore. */
  namesRead: Set<string>;
  /** Pets without a chip's key to how many rows of the file so far named such a pet. */
  petsSeen: Map<string, number>;
  /** E-mails whose accounts this upload opened: their owners are invited, not told of each pet. */
  opened: Set<string>;
}

export const emptyRegistry = (): Registry => ({ chipHolders: new Map(), petsBefore: new Map(), namesRead: new Set(), petsSeen: new Map(), opened: new Set() });

export const copyRegistry = (registry: Registry): Registry => ({
  chipHolders: new Map(registry.chipHolders),
  petsBefore: new Map(registry.petsBefore),
  namesRead: new Set(registry.namesRead),
  petsSeen: new Map(registry.petsSeen),
  opened: new Set(registry.opened),
});

const petKey = (owner: string, pet: Pick<PetRegistration, 'name' | 'speciesId' | 'dob'>) =>
  `${owner} ${pet.speciesId} ${pet.dob ?? ''} ${pet.name.toLowerCase()}`;

/** Reads into the registry what the database holds of a chunk's chips and its owners' pets (owners by lower-case e-mail). */
async function readRegistry(
  tx: Transaction,
  registry: Registry,
  rows: readonly CheckedPetRow[],
  ownerOf: (row: CheckedPetRow) => string,
  owners: ReadonlyMap<string, number>,
) {
  const chipIds = [...new Set(rows.flatMap((row) => (row.pet?.chipId ? [row.pet.chipId] : [])))].filter((id) => !registry.chipHolders.has(id));
  if (chipIds.length > 0) {
    const held = await tx
      .select({ chipId: chips.chipId, email: sql<string>`lower(${users.email})`, deletedAt: pets.deletedAt })
      .from(chips)
      .innerJoin(pets, eq(pets.id, chips.petId))
      .innerJoin(users, eq(users.id, pets.userId))
      .where(and(inArray(chips.chipId, chipIds), isNull(chips.removedAt)));
    for (const chip of held) registry.chipHolders.set(chip.chipId, chip.deletedAt ? null : chip.email);
  }
  // Each owner's pets of a name are read once, before any of this upload's: later chunks must not count those as there before.
  const reading = new Set<string>();
  const names = new Set<string>();
  for (const row of rows) {
    if (!row.pet || row.pet.chipId) continue;
    const pair = `${ownerOf(row)} ${row.pet.name.toLowerCase()}`;
    if (registry.namesRead.has(pair)) continue;
    registry.namesRead.add(pair);
    if (!owners.has(ownerOf(row))) continue;
    reading.add(pair);
    names.add(row.pet.name.toLowerCase());
  }
  if (reading.size === 0) return;
  const emailOf = new Map([...owners].map(([email, id]) => [id, email]));
  const owned = await tx
    .select({ userId: pets.userId, name: pets.name, speciesId: pets.speciesId, dob: pets.dob })
    .from(pets)
    .where(and(inArray(pets.userId, [...owners.values()]), inArray(sql`lower(${pets.name})`, [...names]), isNull(pets.deletedAt)));
  for (const pet of owned) {
    const owner = emailOf.get(pet.userId)!;
    if (!pet.speciesId || !reading.has(`${owner} ${pet.name.toLowerCase()}`)) continue;
    const key = petKey(owner, { ...pet, speciesId: pet.speciesId });
    registry.petsBefore.set(key, (registry.petsBefore.get(key) ?? 0) + 1);
  }
}

/** What becomes of a good row, given its owner's e-mail: created, or skipped or refused as already there. */
function decide(registry: Registry, owner: string, pet: PetRegistration): { status: PetUploadStatus; reason: string } {
  if (pet.chipId) {
    const holder = registry.chipHolders.get(pet.chipId);
    // A chip on another owner's pet is never moved by a file: that is a transfer, an administrator's call.
    if (holder !== undefined) return holder === owner ? { status: 'skipped', reason: messages.petUploadChipRegistered } : { status: 'error', reason: messages.chipTaken };
    registry.chipHolders.set(pet.chipId, owner);
  } else {
    const key = petKey(owner, pet);
    const seen = (registry.petsSeen.get(key) ?? 0) + 1;
    registry.petsSeen.set(key, seen);
    // Two kittens of one name are two pets: the n-th such row is one the owner had only when they had n before.
    if (seen <= (registry.petsBefore.get(key) ?? 0)) return { status: 'skipped', reason: messages.petUploadPetRegistered };
  }
  return { status: 'created', reason: '' };
}

/**
 * Tells each owner of an account that existed before the upload (the shelter's own included), by one
 * e-mail in the chunk's transaction, which pets the upload registered to it: a file never adds pets
 * to an account silently.
 */
async function tellExistingOwners(
  tx: Transaction,
  shelterEmail: string,
  existing: ReadonlyMap<string, ExistingAccount>,
  told: readonly { owner: string; pet: PetRegistration }[],
) {
  const petNames = new Map<string, string[]>();
  for (const { owner, pet } of told) petNames.set(owner, [...(petNames.get(owner) ?? []), pet.name]);
  if (petNames.size === 0) return;
  await tx.insert(mailOutbox).values(
    [...petNames].map(([owner, names]) => {
      const { firstName } = existing.get(owner)!;
      const email = isSameEmail(owner, shelterEmail) ? petsRegisteredToShelterEmail(firstName, names) : petsRegisteredByShelterEmail(firstName, shelterEmail, names);
      return { recipient: owner, ...email };
    }),
  );
}

/** What a chunk wrote, for the upload's audit entry. */
export interface ChunkWrites {
  results: PetRowResult[];
  petIds: number[];
  invitedUserIds: number[];
}

/**
 * Registers a chunk of rows in the caller's transaction, in set-based statements. Pets start as a
 * pet an owner registered without paying does: inactive, chip inactive, no plan, until a plan is
 * bought at checkout. Rows whose owner has no account and does not describe one fully are errors.
 */
export async function registerChunk(
  tx: Transaction,
  context: { publicUrl: string; shelterEmail: string },
  registry: Registry,
  rows: readonly CheckedPetRow[],
): Promise<ChunkWrites> {
  const good = rows.filter((row) => row.pet && !row.example);
  const ownerOf = (row: CheckedPetRow) => row.ownerEmail ?? context.shelterEmail;
  const existing = await findAccounts(tx, [...new Set(good.map(ownerOf))]);
  const existingIds = new Map([...existing].map(([email, account]) => [email, account.id]));
  await readRegistry(tx, registry, good, ownerOf, existingIds);
  // A new owner's account is described by the first of their rows that describes it fully.
  const described = new Map<string, NewOwner>();
  for (const row of good) {
    const email = ownerOf(row);
    const owner = row.ownerEmail ? row.newOwner : shelterAccount(email);
    if (owner && !existing.has(email) && !described.has(email)) described.set(email, owner);
  }
  const creating: { row: CheckedPetRow; pet: PetRegistration; owner: string; publicId: string }[] = [];
  // Pets given to an account that existed before the upload: its owner is told.
  const told: { owner: string; pet: PetRegistration }[] = [];
  const results = rows.map((row): PetRowResult => {
    if (row.example) return { cells: row.cells, status: 'skipped', reason: messages.petUploadExampleRow };
    if (!row.pet) return { cells: row.cells, status: 'error', reason: rowReason(row.errors) };
    const owner = ownerOf(row);
    const account = existing.get(owner);
    if (!account && !described.has(owner)) return { cells: row.cells, status: 'error', reason: rowReason(row.ownerErrors) };
    // A file never gives pets to an account its owner cannot use, nor to the registry's staff.
    if (account && !account.isActive) return { cells: row.cells, status: 'error', reason: messages.petUploadAccountInactive };
    if (account?.roles.includes('admin')) return { cells: row.cells, status: 'error', reason: messages.petUploadAccountAdmin };
    const decision = decide(registry, owner, row.pet);
    if (decision.status !== 'created') return { cells: row.cells, ...decision };
    creating.push({ row, pet: row.pet, owner, publicId: randomUUID() });
    if (!account || registry.opened.has(owner)) return { cells: row.cells, status: 'created', reason: '' };
    told.push({ owner, pet: row.pet });
    // A row without an owner's e-mail names no owner details to leave out.
    return { cells: row.cells, status: 'created', reason: row.ownerEmail ? messages.petUploadExistingAccount : '' };
  });
  await tellExistingOwners(tx, context.shelterEmail, existing, told);
  // Only owners who get a pet are given an account: a row refused or skipped opens none.
  const opening = [...new Set(creating.map((c) => c.owner))].flatMap((email) => (existing.has(email) ? [] : [described.get(email)!]));
  const opened = await openAccounts(tx, context, opening);
  for (const owner of opening) registry.opened.add(owner.email);
  if (creating.length === 0) return { results, petIds: [], invitedUserIds: opened.invited };
  const userIds = new Map([...existingIds, ...opened.ids]);

  const inserted = await tx
    .insert(pets)
    .values(
      creating.map(({ pet, owner, publicId }) => ({
        publicId,
        userId: userIds.get(owner)!,
        name: pet.name,
        speciesId: pet.speciesId,
        sex: pet.sex,
        dob: pet.dob,
        approximateWeight: pet.approximateWeight === null ? null : String(pet.approximateWeight),
        notes: pet.notes,
      })),
    )
    .returning({ id: pets.id, publicId: pets.publicId });
  const idOf = new Map(inserted.map((p) => [p.publicId, p.id]));
  const created = creating.map((c) => ({ ...c, petId: idOf.get(c.publicId)! }));
  const breedLinks = created.flatMap(({ pet, petId }) => [...new Set(pet.breeds.map((b) => b.id))].map((breedId) => ({ petId, breedId })));
  if (breedLinks.length > 0) await tx.insert(petBreeds).values(breedLinks);
  const chipRows = created.flatMap(({ pet, petId }) => (pet.chipId ? [{ petId, chipId: pet.chipId, chipTypeId: pet.chipTypeId }] : []));
  if (chipRows.length > 0) await tx.insert(chips).values(chipRows);
  const petIds = created.map((c) => c.petId);
  await createShortLinks(tx, petIds);
  return { results, petIds, invitedUserIds: opened.invited };
}
