import { z } from 'zod';
import { limits } from './constants.js';
import { requestObject, textField } from './fields.js';
import { messages } from './messages.js';

/** POST Users/close-account: the password proves it is the owner, not a borrowed session. */
export const closeAccountSchema = requestObject({
  password: textField(limits.passwordMax, messages.passwordTooLong, messages.passwordRequired, 'secret').min(1, {
    error: messages.passwordRequired,
  }),
});
export type CloseAccountInput = z.infer<typeof closeAccountSchema>;

/** What a closed account's payments keep, for the registry's accounts: the profile page names it. */
export const paymentFieldsKeptOnClosing = [
  'amount and currency',
  'date',
  'plan',
  "card's last 4 digits",
  "payment provider's references",
] as const;

/** The printable card's page sizes: A6 (105 × 148 mm) for a fridge or a carrier, Letter for a poster. */
export const petCardSizes = ['a6', 'letter'] as const;
export type PetCardSize = (typeof petCardSizes)[number];

export const petCardQuery = requestObject({
  size: z.enum(petCardSizes, { error: messages.invalidRequest }).default('a6'),
});

/** The export's file name: the account id and the day it was taken. */
export const accountExportFileName = (userId: number, at: Date) => `pet-registry-data-${userId}-${at.toISOString().slice(0, 10)}.json`;

/**
 * QR codes of a pet's short link, on the collar tag's files and on the printable card alike: a quiet
 * zone of 2 modules and medium error correction, so a scratched tag still scans.
 */
export const shortLinkQrOptions = { margin: 2, errorCorrectionLevel: 'M' } as const;
