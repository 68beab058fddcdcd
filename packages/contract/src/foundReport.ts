/**
 * "Reach the owner": the finder's form (/found?pet=<publicId> or /found?chip=<chip number>) and the
 * public calls behind it. The finder learns nothing of the owner; the owner gets the finder's words.
 */
import { z } from 'zod';
import { imageDataUrlMax, limits } from './constants.js';
import { requestObject, textField, whenFieldsParsed } from './fields.js';
import { lookedUpChip } from './lookup.js';
import { messages } from './messages.js';
import { isValidPhone } from './phone.js';

/** A chip number as the lookup takes it: normalised, 9, 10 or 15 characters. */
const chipNumber = lookedUpChip();

/** A pet's public id, as the profile's address carries it. */
const publicId = textField(64, messages.notFound, messages.notFound);

/** Exactly one of the two ways a finder names the pet. */
const namesOnePet = (chip: unknown, pet: unknown) => (chip === undefined) !== (pet === undefined);

/** `GET public/found-report?pet=<publicId>` or `?chip=<chip number>`: what the form needs to open. */
export const foundReportTargetQuery = requestObject({ pet: publicId.optional(), chip: chipNumber.optional() }).refine(
  (v) => namesOnePet(v.chip, v.pet),
  { error: messages.invalidRequest, when: whenFieldsParsed(['pet', 'chip']) },
);
export type FoundReportTargetInput = z.input<typeof foundReportTargetQuery>;

/** What the form shows before it is filled: never anything about the owner. */
export interface FoundReportTarget {
  /** The pet's name when the form was opened from its public profile (which shows it); null for a chip number. */
  petName: string | null;
  /** The owner's question about a trait not shown publicly, when the owner set one. */
  question: string | null;
}

/** Optional one-line text: empty is none. */
const optionalText = (max: number, tooLong: string) =>
  textField(max, tooLong)
    .trim()
    .nullish()
    .transform((v) => (v ? v : null));

const isEmail = (v: string) => z.email({ pattern: z.regexes.html5Email }).safeParse(v).success;

/** The finder's form fields, beside the pet it names. */
export const foundReportFields = {
  name: textField(limits.finderNameMax, messages.contactNameTooLong, messages.contactNameRequired)
    .trim()
    .min(1, { error: messages.contactNameRequired }),
  phone: textField(limits.phoneMax, messages.phoneTooLong)
    .trim()
    .refine((v) => v === '' || isValidPhone(v), { error: messages.contactPhoneInvalid })
    .nullish()
    .transform((v) => (v ? v : null)),
  email: textField(limits.emailMax, messages.emailTooLong)
    .trim()
    .refine((v) => v === '' || isEmail(v), { error: messages.emailInvalid })
    .nullish()
    .transform((v) => (v ? v : null)),
  /** The finder's words; they keep their line breaks. */
  message: textField(limits.foundMessageMax, messages.foundMessageTooLong, messages.foundMessageRequired, 'several')
    .trim()
    .min(1, { error: messages.foundMessageRequired }),
  /** Where the pet is now: a place in the finder's words, or a ZIP code. */
  where: textField(limits.foundWhereMax, messages.foundWhereTooLong, messages.foundWhereRequired)
    .trim()
    .min(1, { error: messages.foundWhereRequired }),
  /** A data URL of a photo; checked and re-encoded like a pet's photo. */
  photo: textField(imageDataUrlMax, messages.imageTooLarge, messages.onlyImages)
    .nullish()
    .transform((v) => (v ? v : null)),
  /** The answer to the owner's question, shown to the owner only. */
  answer: optionalText(limits.verificationAnswerMax, messages.verificationAnswerTooLong),
  /**
   * Hidden from people: a form that fills it is a robot's, answered as if sent and never passed on.
   * Named so that no browser's autofill knows it (a "website" field it would fill, dropping a real report).
   */
  leaveBlank: textField(1000, messages.invalidRequest, messages.invalidRequest).optional(),
};

/** `POST public/found-report` and the finder's form: the pet (by chip or public id) and the finder's report. */
export const foundReportSchema = requestObject({ chipId: chipNumber.optional(), publicId: publicId.optional(), ...foundReportFields })
  .refine((v) => namesOnePet(v.chipId, v.publicId), { error: messages.invalidRequest, when: whenFieldsParsed(['chipId', 'publicId']) })
  .refine((v) => Boolean(v.phone || v.email), {
    error: messages.finderContactRequired,
    path: ['phone'],
    when: whenFieldsParsed(['phone', 'email']),
  });
export type FoundReportInput = z.input<typeof foundReportSchema>;
export type FoundReport = z.output<typeof foundReportSchema>;

/** The answer to a report: a sentence saying who was told. */
export interface FoundReportSent {
  message: string;
}
