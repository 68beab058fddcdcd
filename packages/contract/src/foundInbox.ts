/**
 * The owner's inbox of found reports (issue 19): what finders told the owner through the portal, the
 * owner's answers (share the phone, mark reunited), and the shapes the calls answer.
 */
import type { z } from 'zod';
import { requestObject, textField } from './fields.js';
import { messages } from './messages.js';

/** The inbox lists at most this many reports, newest first. */
export const foundReportsListMax = 100;
/** The owner's line sent to the finder with the phone number. */
export const finderNoteMax = 200;

/**
 * A link or a web address: an address with a scheme, one starting www., a word.word/ path, or a
 * name ending in a common top-level domain (phones make those into links too).
 */
const webAddress = /\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)|[\p{L}\p{N}-]+\.[\p{L}\p{N}-]+\/|[\p{L}\p{N}-]\.(?:com|net|org|info|biz|io|co|ly|me|app|xyz|link|site|online|us)\b/iu;

/**
 * POST found-reports/{id}/share-phone: an optional line from the owner, one line and no link: the
 * portal sends it to a number or address a stranger typed, so it must not carry one of theirs.
 */
export const sharePhoneSchema = requestObject({
  note: textField(finderNoteMax, messages.finderNoteTooLong)
    .trim()
    .refine((note) => !webAddress.test(note), { error: messages.finderNoteLink })
    .default(''),
});
export type SharePhoneInput = z.input<typeof sharePhoneSchema>;

/** A report as the inbox lists it: which pet, who found it, and whether the owner opened it. */
export interface FoundReportSummary {
  id: number;
  petId: number;
  petName: string;
  petImageUrl: string | null;
  finderName: string;
  /** Where the pet is now, as the finder wrote it. */
  location: string;
  createdAt: string;
  opened: boolean;
  reunited: boolean;
  /**
   * The pet is no longer in the account the report was made to (transferred to another owner): the
   * report stays readable there, and nothing more can be done from it.
   */
  petTransferred: boolean;
}

/** GET found-reports: the newest reports, and how many the owner has not opened. */
export interface FoundReportList {
  items: FoundReportSummary[];
  unread: number;
}

/** GET found-reports/unread-count. */
export interface FoundReportUnread {
  unread: number;
}

/** GET found-reports/{id}: one report, everything the finder sent and what became of it. */
export interface FoundReportDetail extends FoundReportSummary {
  finderPhone: string | null;
  finderEmail: string | null;
  /** The finder's words, plain text, line breaks kept. */
  message: string;
  photoUrl: string | null;
  /** The pet's verification question as the finder saw it, and the finder's answer (never checked). */
  question: string | null;
  answer: string | null;
  openedAt: string | null;
  phoneSharedAt: string | null;
  reunitedAt: string | null;
  /** Escalation: when the backup contacts and the pet's vets were told of the report nobody opened. */
  backupContactsToldAt: string | null;
  vetsToldAt: string | null;
}

/** Shown on every report: finders who ask for money first are the commonest scam. */
export const finderScamWarning =
  'Never pay a finder in advance. Arrange to meet in a public place, and bring a photo of your pet and its papers.';
