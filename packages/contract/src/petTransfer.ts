/**
 * Transfers an owner offers (issue 20): `POST Pet/{id}/transfer` names the new owner's e-mail, who
 * accepts or declines within 7 days; the owner may cancel until then. `GET Pet/transfers` lists the
 * open offers both ways. The mailed link opens `paths.petTransfer` with its code.
 */
import { z } from 'zod';
import { emailField } from './account.js';
import { limits } from './constants.js';
import { requestObject, textField } from './fields.js';
import { messages } from './messages.js';

/** Days the addressee has to answer; the worker expires the offer after. */
export const transferOfferDays = 7;

/** Where an offer stands: open, then accepted, declined, canceled by the owner, or expired. */
export const petTransferStatuses = ['open', 'accepted', 'declined', 'canceled', 'expired'] as const;
export type PetTransferStatus = (typeof petTransferStatuses)[number];

/** `POST Pet/{id}/transfer`: the new owner's e-mail. */
export const startPetTransferSchema = requestObject({ email: emailField });
export type StartPetTransferInput = z.infer<typeof startPetTransferSchema>;

/** The transfer dialog of the pet page: the new owner's e-mail twice, as the administrator's dialog asks it. */
export const petTransferDialogSchema = z
  .object({ email: emailField, confirmEmail: textField(limits.emailMax, messages.emailsDoNotMatch) }, { error: messages.invalidRequest })
  .refine((v) => v.email.trim().toLowerCase() === v.confirmEmail.trim().toLowerCase(), {
    error: messages.emailsDoNotMatch,
    path: ['confirmEmail'],
  });
export type PetTransferDialogInput = z.infer<typeof petTransferDialogSchema>;

/** `POST Pet/transfers/{id}/accept`: whether the new owner's phone shows on the pet's public profile when it is lost. */
export const acceptPetTransferSchema = requestObject({
  shareContactInfo: z.boolean({ error: messages.invalidChoice }).default(false),
});
export type AcceptPetTransferInput = z.input<typeof acceptPetTransferSchema>;

/** The mailed link's code: `GET public/pet-transfer?token=`, `POST public/pet-transfer/accept|decline`. */
export const petTransferTokenSchema = requestObject({
  token: textField(200, messages.transferNotOpen, messages.transferNotOpen).trim().min(1, { error: messages.transferNotOpen }),
});
export const acceptPetTransferByLinkSchema = petTransferTokenSchema.extend(acceptPetTransferSchema.shape);

/** An open offer the owner made. */
export interface OutgoingPetTransfer {
  id: number;
  petId: number;
  petName: string;
  toEmail: string;
  createdAt: string;
  expiresAt: string;
}

/** An open offer made to the signed-in account's e-mail. */
export interface IncomingPetTransfer {
  id: number;
  petId: number;
  petName: string;
  species: string | null;
  fromFirstName: string;
  expiresAt: string;
}

/** `GET Pet/transfers`. */
export interface PetTransfers {
  outgoing: OutgoingPetTransfer[];
  incoming: IncomingPetTransfer[];
}

/** What the mailed link's page shows (`GET public/pet-transfer`): the pet, who offers it, to which address. */
export interface PetTransferOffer {
  petName: string;
  fromFirstName: string;
  toEmail: string;
  expiresAt: string;
  /** The address has an account: its owner signs in to accept. */
  hasAccount: boolean;
}

/** What accepting answers: for an account made by the acceptance, the page that sets its password (and asks its names and phone). */
export interface AcceptedPetTransfer {
  message: string;
  petId: number;
  setPasswordPath: string | null;
}

/** The administrator's dispute hold (`PUT admin/pet-hold/{petId}`): why. */
export const petHoldSchema = requestObject({
  reason: textField(200, messages.transferHoldReasonTooLong, messages.transferHoldReasonRequired)
    .trim()
    .min(1, { error: messages.transferHoldReasonRequired }),
});
export type PetHoldInput = z.infer<typeof petHoldSchema>;

/** A dispute hold as the admin record shows it. */
export interface PetTransferHold {
  reason: string;
  at: string;
  by: string;
}
