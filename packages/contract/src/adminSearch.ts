/**
 * The administrators' search (spec 2.7 admin-search, admin/users/:searchkey, admin/stripe-search/:searchkey;
 * spec 7 Admin): the search boxes' schemas, shared by the screens and the routes, and the rows they answer.
 */
import { z } from 'zod';
import { normaliseChipId } from './chip.js';
import { requestObject, textField } from './fields.js';
import type { CountedMatches } from './constants.js';
import { messages } from './messages.js';

/** GET admin/pet-by-microchip?chip=: a chip number as any reader or paper prints it. */
export const adminChipSearchQuery = requestObject({
  chip: textField(40, messages.lookupLength, messages.chipSearchRequired)
    .transform(normaliseChipId)
    .refine((chip) => chip.length > 0, { error: messages.chipSearchRequired }),
});
export type AdminChipSearchInput = z.input<typeof adminChipSearchQuery>;

/** The pet a chip number belongs to (spec 7: result with id and the pet id). */
export interface AdminChipMatch {
  /** The chip's own record. */
  id: number;
  petId: number;
  chipId: string;
  /**
   * The pet was removed (soft delete): administrators still find it, for the audit, marked so.
   * A chip taken off a pet that is still registered leads to that pet too.
   */
  removed: boolean;
}

/** Spec 9: the user search asks for page 1; each page holds this many rows, a screenful to read down. */
export const adminUserSearchPageSize = 20;

/** POST Users/SearchUsersByAdmin: part of an owner's name, a pet's name, an e-mail, or a phone typed any way. */
export const adminUserSearchSchema = requestObject({
  searchTerm: textField(100, messages.userSearchTooLong, messages.userSearchRequired)
    .trim()
    .min(1, { error: messages.userSearchRequired }),
  pageNumber: z
    .number({ error: messages.invalidRequest })
    .int({ error: messages.invalidRequest })
    .min(1, { error: messages.invalidRequest })
    .max(10_000, { error: messages.invalidRequest })
    .default(1),
});
export type AdminUserSearchInput = z.input<typeof adminUserSearchSchema>;

/** User search row (spec 3): one per pet of a matching owner; an owner without pets has one row with no pet. */
export interface AdminUserRow {
  petId: number | null;
  userId: number;
  ownerName: string;
  email: string;
  /** Street, city, state and ZIP, as much as the owner gave. */
  address: string;
  phoneNumber: string | null;
  petName: string | null;
  /** The pet's current chip, or the last it carried. */
  chipId: string | null;
  /** The pet was removed (soft delete); administrators still see it. */
  petRemoved: boolean;
}

export interface AdminUserSearchPage extends CountedMatches {
  rows: AdminUserRow[];
  pageNumber: number;
  pageSize: number;
}

/** GET admin/stripe-transactions/?key=: a card's last 4 digits. */
export const cardPaymentSearchQuery = requestObject({
  key: textField(10, messages.cardLast4Invalid, messages.cardLast4Invalid)
    .trim()
    .regex(/^\d{4}$/, { error: messages.cardLast4Invalid }),
});
export type CardPaymentSearchInput = z.input<typeof cardPaymentSearchQuery>;

/** At most this many payments answer one card search, the latest first. */
export const cardPaymentSearchLimit = 200;

/** Card transaction row (spec 3). */
export interface CardTransactionRow {
  paymentIntentId: string | null;
  last4: string;
  /** When the payment was recorded (ISO timestamp). */
  created: string;
  /** The name on the card, or the account's name. */
  name: string;
  email: string;
  /** In cents (spec 9: order totals are in cents). */
  amount: number;
  currency: string;
  /** paid, or refund_due (taken but not applied, waiting for a refund). */
  status: string;
  /** The pet paid for (its record is /admin/pet/{petId}), and what was bought: a plan or a lost pet alert. */
  petId: number | null;
  petName: string | null;
  product: string | null;
}
