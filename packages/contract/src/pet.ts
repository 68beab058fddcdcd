import { z } from 'zod';
import { isWellFormedChipId, normaliseChipId } from './chip.js';
import { imageDataUrlMax, limits } from './constants.js';
import { dateField, idField, requestObject, textField, timestampField, whenFieldsParsed } from './fields.js';
import { messages } from './messages.js';
import { normalisePhone } from './phone.js';
import { optionalZipCodeField } from './place.js';

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
export function petFields(nameMin: number, nameMinMessage: string) {
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
    /** What a professional matches a found animal on beside species and breed; one line, as the alert e-mail writes it. */
    colour: textField(limits.colourMax, messages.colourTooLong)
      .trim()
      .nullish()
      .transform((v) => (v ? v : null)),
    spayedNeutered: z.boolean({ error: messages.invalidChoice }).default(false),
    shareContactInfo: z.boolean({ error: messages.invalidChoice }).default(false),
    notes: textField(limits.notesMax, messages.notesTooLong, messages.invalidText, 'several')
      .nullish()
      .transform((v) => (v ? v : null)),
    /** A data URL when a new image was chosen, otherwise the stored file name (or null). */
    image: textField(imageDataUrlMax, messages.imageTooLarge, messages.onlyImages)
      .nullish()
      .transform((v) => v ?? null),
  };
}

/** What is wrong with a (normalised, non-empty) chip number, in spec 5's words; null when nothing is. */
export function chipNumberProblem(chipId: string): string | null {
  if (chipId.length < limits.chipIdMin) return messages.chipTooShort;
  if (!isWellFormedChipId(chipId)) return messages.lookupLength;
  return null;
}

/** Chip, confirmation and brand rules of spec section 5, applied to any object holding them. */
function checkChip(value: { chipId: string; confirmChip: string; chipTypeId: number | null }, ctx: z.RefinementCtx) {
  if (!value.chipId) return;
  const problem = chipNumberProblem(value.chipId);
  if (problem) ctx.addIssue({ code: 'custom', path: ['chipId'], message: problem });
  if (!value.confirmChip) ctx.addIssue({ code: 'custom', path: ['confirmChip'], message: messages.chipNotConfirmed });
  else if (value.confirmChip !== value.chipId) {
    ctx.addIssue({ code: 'custom', path: ['confirmChip'], message: messages.chipsDoNotMatch });
  }
  if (!value.chipTypeId) ctx.addIssue({ code: 'custom', path: ['chipTypeId'], message: messages.chipTypeRequired });
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

/** Adds the chip rules to a form holding the chip fields; they run beside the other fields' errors. */
export function withChipRules<S extends z.ZodType<{ chipId: string; confirmChip: string; chipTypeId: number | null }>>(schema: S): S {
  return schema.superRefine(checkChip, { when: whenFieldsParsed(Object.keys(chipFields)) });
}

/** Registration (client/pet, pet-register): POST Pet/create-pet. */
export const petRegistrationSchema = withChipRules(
  requestObject({
    ...petFields(limits.petNameMinRegistration, messages.petNameMin2),
    ...chipFields,
  }),
);
export type PetRegistrationInput = z.input<typeof petRegistrationSchema>;
export type PetRegistration = z.output<typeof petRegistrationSchema>;

/** A client's clock may run a little ahead of the server's: "just now" is no future date. */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * When the pet went missing (the public profile shows the hour): a moment, not in the future.
 * No rule aborts (see timestampField); the first message of the field is the one shown.
 */
export const missingDateField = timestampField(messages.missingDateRequired)
  .refine((v) => !(Date.parse(v) > Date.now() + CLOCK_SKEW_MS), { error: messages.dateInFuture });

/** What the owner says happened; the alert e-mail quotes it. */
export const incidentDescriptionField = textField(limits.incidentDescriptionMax, messages.incidentDescriptionTooLong, messages.incidentDescriptionRequired, 'several')
  .trim()
  .min(1, { error: messages.incidentDescriptionRequired });

/**
 * A missing pet's details, which the lost alert form saves on the pet first (spec 7). A field not
 * sent (the ordinary edit form) is left as it is; null or empty text clears it.
 */
const missingPetFields = {
  missingDate: missingDateField.nullish(),
  zipCode: optionalZipCodeField,
  incidentDescription: textField(limits.incidentDescriptionMax, messages.incidentDescriptionTooLong, messages.invalidText, 'several')
    .trim()
    .nullish()
    .transform((v) => (v === '' ? null : v)),
};

/**
 * The owner's question about a trait not shown publicly ("What colour is the collar?"), asked on the
 * finder's form; only the owner sees the answer. Not sent (the lost alert and admin forms): left as it is.
 */
export const verificationQuestionField = textField(limits.verificationQuestionMax, messages.verificationQuestionTooLong)
  .trim()
  .nullish()
  .transform((v) => (v === '' ? null : v));

/** The owner's edit form fields (client/pet/update/{id}); the lost alert form builds on them. */
export const petProfileFields = {
  id: idField(messages.invalidId),
  ...petFields(limits.petNameMinOwnerEdit, messages.petNameMin3),
  ...chipFields,
};

/** The owner's edit form (client/pet/update/{id}) and the lost alert form's first call: PUT Pet/pet-profile and PUT Pet/{id}. */
export const petProfileSchema = withChipRules(
  requestObject({ ...petProfileFields, ...missingPetFields, verificationQuestion: verificationQuestionField.optional() }),
);
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
  /** The contact confirmed the number (a reply or the texted link): only then is it texted. */
  phoneConfirmed: boolean;
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
  /** Colour and markings; shown to the owner and in the alert to professionals, not on the public profile. */
  colour: string | null;
  notes: string | null;
  isActive: boolean;
  subscriptionExpired: boolean;
  /** 'paid' while a sent lost pet alert is open (spec 4), 'found' once marked found; null before any alert. */
  status: string | null;
  missingDate: string | null;
  /** The ZIP code where the pet was last seen, while it is missing. */
  zipCode: string | null;
  incidentDescription: string | null;
  foundDate: string | null;
  /** The owner's question for finders; null when none is set. */
  verificationQuestion: string | null;
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
