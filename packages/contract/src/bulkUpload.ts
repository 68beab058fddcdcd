/**
 * The bulk shelter upload (spec 2.7 bulk-pet-upload, 5, 7 POST admin/bulk-pet-upload): a CSV of
 * pets, each registered to its owner's account or, without an owner, to the shelter's account.
 */
import { z } from 'zod';
import { emailField } from './account.js';
import { textField } from './fields.js';
import { messages } from './messages.js';
import type { DownloadFile } from './site.js';

/** The CSV columns of a pets file, in the template's order. */
export const petUploadColumns = [
  'petName',
  'species',
  'breed',
  'sex',
  'dob',
  'chipId',
  'chipBrand',
  'weightLbs',
  'notes',
  'ownerFirstName',
  'ownerLastName',
  'ownerEmail',
  'ownerPhone',
  'ownerAddress1',
  'ownerCity',
  'ownerState',
  'ownerZip',
] as const;
export type PetUploadColumn = (typeof petUploadColumns)[number];

/**
 * The template's one example row (web/public/templates/bulk-pet-upload-template.csv). An upload
 * skips it, known by its chip and owner e-mail: a template filled in below it registers no stranger's pet.
 */
export const petUploadExample: Record<PetUploadColumn, string> = {
  petName: 'Biscuit',
  species: 'Dog',
  breed: 'Labrador Retriever; Beagle',
  sex: 'Male',
  dob: '03/14/2022',
  chipId: '985141000123456',
  chipBrand: 'HomeAgain',
  weightLbs: '52',
  notes: 'Friendly with cats',
  ownerFirstName: 'Jamie',
  ownerLastName: 'Rivera',
  ownerEmail: 'jamie.rivera@example.org',
  ownerPhone: '(314) 555-0142',
  ownerAddress1: '1200 Market St',
  ownerCity: 'Saint Louis',
  ownerState: 'MO',
  ownerZip: '63101',
};

/** Columns a pets file cannot do without: every pet needs a name and a species. */
export const petUploadRequiredColumns = ['petName', 'species'] as const satisfies readonly PetUploadColumn[];

/** One pets file: at most this large and this many rows (a shelter's intake of a year fits). */
export const petUploadLimits = { maxFileBytes: 10 * 1024 * 1024, maxRows: 10_000 } as const;

/** A breed cell may name up to three breeds, separated by this. */
export const petUploadBreedSeparator = ';';

/** What became of one row, written in the result file's status column. */
export const petUploadStatuses = ['created', 'skipped', 'error'] as const;
export type PetUploadStatus = (typeof petUploadStatuses)[number];

/** Spec 5: the shelter e-mail "must match a simple pattern". */
const simpleEmail = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The shelter e-mail of the form, sent beside the file (multipart field `email`): spec 5's pattern
 * and, since it may become an account's address, the account e-mail rule, both worded as spec 5 words it.
 */
export const shelterEmailField = textField(255, messages.bulkUploadEmailInvalid, messages.bulkUploadEmailInvalid)
  .trim()
  .toLowerCase()
  .regex(simpleEmail, { error: messages.bulkUploadEmailInvalid })
  .refine((email) => emailField.safeParse(email).success, { error: messages.bulkUploadEmailInvalid });

export const petUploadFormSchema = z.object({ email: shelterEmailField }, { error: messages.bulkUploadIncomplete });

/** POST admin/bulk-pet-upload: the per-row result file, and how many rows ended each way. */
export interface PetUploadResult extends DownloadFile {
  counts: Record<PetUploadStatus, number>;
}
