import { z } from 'zod';
import { isWellFormedChipId, normaliseChipId } from './chip.js';
import { imageDataUrlMax, limits } from './constants.js';
import { dateField, idField, requestObject, textField } from './fields.js';
import { messages } from './messages.js';
import { normalisePhone } from './phone.js';

export const sexes = [
  { id: 0, name: 'Unknown' },
  { id: 1, name: 'Male' },
  { id: 2, name: 'Female' },
] as const;

const notFuture = (v: string | null | undefined) => !v || v <= new Date().toISOString().slice(0, 10);

export const breedRef = z.object(
  { id: idField(messages.breedsOfSpecies), name: textField(200, messages.breedsOfSpecies, messages.breedsOfSpecies) },
  { error: messages.breedsOfSpecies },
);

function petName(min: number, minMessage: string) {
  return (
    textField(100, messages.petNameTooLong, messages.petNameRequired)
      .trim()
      // No abort here: an aborted field would keep the chip rules from running beside it.
      .min(1, { error: messages.petNameRequired })
      .min(min, { error: minMessage })
  );
}

/** The fields every pet form shares (registration, owner edit, admin edit). */
function petFields(nameMin: number, nameMinMessage: string) {
  return {
    name: petName(nameMin, nameMinMessage),
    speciesId: idField(messages.petSpeciesRequired),
    breeds: z
      .array(breedRef, { error: messages.breedsOfSpecies })
      .max(limits.breedsMax, { error: messages.breedsMax })
      .default([]),
    sex: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: messages.petSexInvalid }).default(0),
    dob: dateField.refine(notFuture, { error: messages.dateInFuture }).nullish().transform((v) => v ?? null),
    lastRabiesVaccine: dateField.refine(notFuture, { error: messages.dateInFuture }).nullish().transform((v) => v ?? null),
    approximateWeight: z
      .number({ error: messages.weightNotNumber })
      .min(0, { error: messages.weightNotNumber })
      .max(5000, { error: messages.weightTooLarge })
      .nullish()
      .transform((v) => v ?? null),
    spayedNeutered: z.boolean({ error: messages.invalidChoice }).default(false),
    shareContactInfo: z.boolean({ error: messages.invalidChoice }).default(false),
    notes: textField(limits.notesMax, messages.notesTooLong)
      .nullish()
      .transform((v) => (v ? v : null)),
    /** A data URL when a new image was chosen, otherwise the stored file name (or null). */
    image: textField(imageDataUrlMax, messages.imageTooLarge, messages.onlyImages)
      .nullish()
      .transform((v) => v ?? null),
  };
}

/** Chip, confirmation and brand rules of spec section 5, applied to any object holding them. */
function checkChip(value: { chipId: string; confirmChip: string; chipTypeId: number | null }, ctx: z.RefinementCtx) {
  if (!value.chipId) return;
  if (value.chipId.length < limits.chipIdMin) {
    ctx.addIssue({ code: 'custom', path: ['chipId'], message: messages.chipTooShort });
  } else if (!isWellFormedChipId(value.chipId)) {
    ctx.addIssue({ code: 'custom', path: ['chipId'], message: messages.lookupLength });
  }
  if (!value.confirmChip) ctx.addIssue({ code: 'custom', path: ['confirmChip'], message: messages.chipNotConfirmed });
  else if (value.confirmChip !== value.chipId) {
    ctx.addIssue({ code: 'custom', path: ['confirmChip'], message: messages.chipsDoNotMatch });
  }
  if (!value.chipTypeId) ctx.addIssue({ code: 'custom', path: ['chipTypeId'], message: messages.chipTypeRequired });
}

/**
 * Chip rules run with the other fields' errors, so a form shows them all at once; not when the
 * chip fields failed, nor when the value was no object at all (an issue without a field).
 */
function chipFieldsParsed(payload: { issues: readonly { path?: readonly PropertyKey[] }[] }): boolean {
  return payload.issues.every((issue) => {
    const field = issue.path?.[0];
    return field !== undefined && !(field in chipFields);
  });
}

const chipFields = {
  chipId: textField(40, messages.lookupLength)
    .nullish()
    .transform((v) => normaliseChipId(v ?? '')),
  confirmChip: textField(40, messages.chipsDoNotMatch)
    .nullish()
    .transform((v) => normaliseChipId(v ?? '')),
  chipTypeId: idField(messages.chipTypeRequired)
    .nullish()
    .transform((v) => v ?? null),
};

/** Registration (client/pet, pet-register): POST Pet/create-pet. */
export const petRegistrationSchema = requestObject({
  ...petFields(limits.petNameMinRegistration, messages.petNameMin2),
  ...chipFields,
})
  .superRefine(checkChip, { when: chipFieldsParsed });
export type PetRegistrationInput = z.input<typeof petRegistrationSchema>;
export type PetRegistration = z.output<typeof petRegistrationSchema>;

/** The owner's edit form (client/pet/update/{id}): PUT Pet/pet-profile and PUT Pet/{id}. */
export const petProfileSchema = requestObject({
  id: idField(messages.invalidId),
  ...petFields(limits.petNameMinOwnerEdit, messages.petNameMin3),
  ...chipFields,
})
  .superRefine(checkChip, { when: chipFieldsParsed });
export type PetProfileInput = z.input<typeof petProfileSchema>;
export type PetProfile = z.output<typeof petProfileSchema>;

export const backupContactSchema = requestObject({
  id: idField(messages.invalidId).nullish(),
  name: textField(100, messages.contactNameTooLong, messages.contactNameRequired)
    .trim()
    .min(1, { error: messages.contactNameRequired, abort: true })
    .min(limits.backupContactNameMin, { error: messages.contactNameMin }),
  phoneNumber: textField(limits.phoneMax, messages.phoneTooLong, messages.contactPhoneRequired)
    .trim()
    .min(1, { error: messages.contactPhoneRequired, abort: true })
    .min(limits.backupContactPhoneMin, { error: messages.contactPhoneInvalid, abort: true })
    .refine((v) => normalisePhone(v) !== null, { error: messages.contactPhoneInvalid }),
});
export type BackupContactInput = z.input<typeof backupContactSchema>;

export interface BackupContact {
  id: number;
  name: string;
  phoneNumber: string;
}

export interface Chip {
  chipId: string;
  chipTypeId: number | null;
  isActive: boolean;
  oneTime: boolean;
  expirationDate: string | null;
}

/** The pet object of spec section 3. */
export interface Pet {
  id: number;
  publicId: string;
  /** Code of the pet's short link (/short/{code}); null for a pet created before short links existed. */
  shortId: string | null;
  name: string;
  image: string | null;
  imageUrl: string | null;
  species: string | null;
  speciesId: number | null;
  petBreedList: number[];
  breeds: { id: number; name: string }[];
  sex: 0 | 1 | 2;
  dob: string | null;
  lastRabiesVaccine: string | null;
  spayedNeutered: boolean;
  shareContactInfo: boolean;
  approximateWeight: number | null;
  notes: string | null;
  isActive: boolean;
  subscriptionExpired: boolean;
  status: string | null;
  missingDate: string | null;
  chips: Chip[];
  microchip1: string | null;
  isChipActive: boolean;
  planId: number | null;
}

export interface CreatedPet {
  pet: Pet;
  /** Plan choice is offered; the sign-up flow goes on to pet-subscription/{id} when true. */
  enabled: boolean;
  plan: number | null;
  /** Things worth a second look that did not stop the registration (an implausible ISO number). */
  warnings: string[];
}
