import {
  emailField,
  messages,
  normalisePhone,
  petRegistrationSchema,
  petUploadBreedSeparator,
  normaliseChipId,
  petUploadColumns,
  petUploadExample,
  petUploadLimits,
  petUploadRequiredColumns,
  profileSchema,
  type PetRegistration,
  type PetUploadColumn,
} from '@petreg/contract';
import { readCsvRows, type CsvFileRules } from '../../csvFiles.js';
import type { Database } from '../../db/client.js';
import { breeds, chipTypes, species, states } from '../../db/schema.js';

export type PetCells = Record<PetUploadColumn, string>;

/** The account a new owner's row opens, in the profile form's terms. */
export interface NewOwner {
  email: string;
  firstName: string;
  lastName: string;
  phoneNumber: string | null;
  address1: string | null;
  city: string | null;
  stateId: number | null;
  zipcode: string | null;
}

/** A row checked with the pet form's rules; `pet` is null when it broke any of them. */
export interface CheckedPetRow {
  cells: PetCells;
  pet: PetRegistration | null;
  /** Lower-case; null when the pet goes to the shelter's account. */
  ownerEmail: string | null;
  /** The owner's account as the row describes it, when that e-mail has no account yet. */
  newOwner: NewOwner | null;
  /** Why the row cannot open an account for its owner (names missing…); they matter only when none exists. */
  ownerErrors: string[];
  errors: string[];
  /** The template's example row, left in the file: skipped. */
  example: boolean;
}

export const petFileRules: CsvFileRules<PetUploadColumn> = {
  columns: petUploadColumns,
  required: petUploadRequiredColumns,
  maxRows: petUploadLimits.maxRows,
  messages: {
    fileRequired: messages.bulkUploadFileRequired,
    unreadable: messages.bulkUploadFileInvalid,
    columnsMissing: messages.petCsvColumnsMissing,
    noRows: messages.petCsvNoRows,
    tooManyRows: messages.petCsvTooManyRows,
  },
};

/** The static lists a row's names are looked up in, by lower-case name. */
export interface PetReferences {
  species: Map<string, number>;
  /** By `${speciesId} ${breed name}`. */
  breeds: Map<string, { id: number; name: string }>;
  chipTypes: Map<string, number>;
  /** US state abbreviations. */
  states: Map<string, number>;
}

export async function loadPetReferences(db: Database): Promise<PetReferences> {
  const [speciesRows, breedRows, chipTypeRows, stateRows] = await Promise.all([
    db.select().from(species),
    db.select().from(breeds),
    db.select().from(chipTypes),
    db.select().from(states),
  ]);
  return {
    species: new Map(speciesRows.map((s) => [s.name.toLowerCase(), s.id])),
    breeds: new Map(breedRows.map((b) => [`${b.speciesId} ${b.name.toLowerCase()}`, { id: b.id, name: b.name }])),
    chipTypes: new Map(chipTypeRows.map((c) => [c.name.toLowerCase(), c.id])),
    // Other countries' regions may share an abbreviation: a US registry's file means the US one.
    states: new Map(stateRows.sort((a, b) => Number(a.countryAbbreviation === 'US') - Number(b.countryAbbreviation === 'US')).map((s) => [s.abbreviation.toUpperCase(), s.id])),
  };
}

const sexes: Record<string, number> = { '': 0, u: 0, unknown: 0, m: 1, male: 1, f: 2, female: 2 };

/** Spreadsheets write dates as the portal shows them (MM/DD/YYYY); the form sends YYYY-MM-DD. */
function dateOfCell(cell: string): string | null {
  const text = cell.trim();
  if (text === '') return null;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  return us ? `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}` : text;
}

/** A number as the form sends it; text that is none stays text, so the form's rule words the error. */
function weightOfCell(cell: string): number | string | null {
  const text = cell.trim();
  if (text === '') return null;
  const weight = Number(text);
  return Number.isFinite(weight) ? weight : text;
}

const blankToNull = (cell: string) => cell.trim() || null;

/** The row's US state, by abbreviation: null when blank, undefined when the registry knows no such state. */
function stateOfCell(cell: string, refs: PetReferences): number | null | undefined {
  const abbreviation = cell.trim().toUpperCase();
  return abbreviation ? refs.states.get(abbreviation) : null;
}

/** The reasons of a row's result, one after the other: each ends where the next begins. */
export const rowReason = (errors: readonly string[]) => errors.join('; ');

/** Checks the new owner's account the row describes; an unknown state is the row's own error (checkPetRow). */
function checkOwner(cells: PetCells, stateId: number | null, email: string): { newOwner: NewOwner | null; errors: string[] } {
  const parsed = profileSchema.safeParse({
    firstName: cells.ownerFirstName,
    lastName: cells.ownerLastName,
    email,
    phoneNumber: blankToNull(cells.ownerPhone),
    address1: cells.ownerAddress1,
    city: cells.ownerCity,
    stateId,
    zipcode: cells.ownerZip,
  });
  if (!parsed.success) return { newOwner: null, errors: [...new Set(parsed.error.issues.map((issue) => issue.message))] };
  const { firstName, lastName, phoneNumber, address1, city, zipcode } = parsed.data;
  return { newOwner: { email, firstName, lastName, phoneNumber: phoneNumber && normalisePhone(phoneNumber), address1, city, stateId, zipcode }, errors: [] };
}

/**
 * Checks a row with the registration form's schema, after looking its names up (species, breeds of
 * that species, chip brand), so a file says "Dog" where the form sends an id.
 */
export function checkPetRow(cells: PetCells, refs: PetReferences): CheckedPetRow {
  const errors: string[] = [];
  const speciesName = cells.species.trim().toLowerCase();
  const speciesId = refs.species.get(speciesName);
  if (speciesName && speciesId === undefined) errors.push(messages.speciesUnknown);
  const breedNames = cells.breed.split(petUploadBreedSeparator).map((b) => b.trim().toLowerCase()).filter(Boolean);
  const petBreeds = breedNames.flatMap((name) => refs.breeds.get(`${speciesId} ${name}`) ?? []);
  if (speciesId !== undefined && petBreeds.length < breedNames.length) errors.push(messages.breedsOfSpecies);
  const brand = cells.chipBrand.trim().toLowerCase();
  const chipTypeId = brand ? refs.chipTypes.get(brand) : null;
  if (chipTypeId === undefined) errors.push(messages.chipBrandUnknown);
  const sex = sexes[cells.sex.trim().toLowerCase()] ?? -1;
  const parsed = petRegistrationSchema.safeParse({
    name: cells.petName,
    speciesId,
    breeds: petBreeds,
    sex,
    dob: dateOfCell(cells.dob),
    approximateWeight: weightOfCell(cells.weightLbs),
    notes: cells.notes.trim(),
    chipId: cells.chipId,
    confirmChip: cells.chipId,
    chipTypeId,
  });
  // A name the file gave but the registry does not know is said once, not also as a missing field.
  const explained = new Set<string>([...(speciesName ? [messages.petSpeciesRequired] : []), ...(brand ? [messages.chipTypeRequired] : [])]);
  errors.push(...(parsed.error?.issues.map((issue) => issue.message).filter((message) => !explained.has(message)) ?? []));

  // A state the registry does not know is a mistake in the file whoever the owner is, an existing account's too.
  const stateId = stateOfCell(cells.ownerState, refs);
  if (stateId === undefined) errors.push(messages.stateInvalid);

  const emailCell = cells.ownerEmail.trim().toLowerCase();
  let ownerEmail: string | null = null;
  let owner: { newOwner: NewOwner | null; errors: string[] } = { newOwner: null, errors: [] };
  if (emailCell) {
    const email = emailField.safeParse(emailCell);
    if (email.success) {
      ownerEmail = email.data;
      owner = checkOwner(cells, stateId ?? null, ownerEmail);
    } else {
      errors.push(messages.emailInvalid);
    }
  }
  const unique = [...new Set(errors)];
  return {
    cells,
    pet: unique.length === 0 && parsed.success ? parsed.data : null,
    ownerEmail,
    newOwner: owner.newOwner,
    ownerErrors: owner.errors,
    errors: unique,
    example: normaliseChipId(cells.chipId) === petUploadExample.chipId && emailCell === petUploadExample.ownerEmail,
  };
}

/** The file's rows, each checked; throws only for a file that is no pets file at all. */
export async function readPetRows(db: Database, file: Buffer): Promise<CheckedPetRow[]> {
  const cells = readCsvRows(file, petFileRules);
  const refs = await loadPetReferences(db);
  return cells.map((row) => checkPetRow(row, refs));
}
