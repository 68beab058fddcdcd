/**
 * The administrator's pet record (admin/pet/:id, spec 2.7): the owner's and the pet's cards, each
 * saved with the admin rules of spec 5, the transfer dialog and the calls of spec 7's Admin list.
 */
import { z } from 'zod';
import { emailField, profileSchema } from './account.js';
import { normaliseChipId } from './chip.js';
import { limits } from './constants.js';
import { idField, idParam, requestObject, textField } from './fields.js';
import { messages } from './messages.js';
import type { AlertStatus } from './alert.js';
import type { ContactCheck } from './contactCheck.js';
import type { MailKind, MailStatus } from './mailLog.js';
import { chipNumberProblem, petFields, type BackupContact, type Pet } from './pet.js';
import type { RecordProtection } from './protectedRecord.js';
import type { PetTransferHold } from './petTransfer.js';
import type { User } from './user.js';

/** `admin/pet-user/{userId}`, `admin/update-user/{userId}`. */
export const adminUserParams = requestObject({ userId: idParam() });

/** `admin/user-pet/{petId}`, `admin/update-pet/{petId}`, `admin/transfer-pet/{petId}`, `admin/remove-pet/{petId}`. */
export const adminPetParams = requestObject({ petId: idParam() });

/**
 * The owner's card (spec 5, admin user form): the profile's fields and rules, and the enabled switch.
 * The administrator changes the e-mail outright (the old address is told); no password is asked.
 */
export const adminUserSchema = profileSchema.omit({ photo: true, currentPassword: true }).extend({
  isActive: z.boolean({ error: messages.invalidChoice }),
});
export type AdminUserInput = z.input<typeof adminUserSchema>;
export type AdminUserUpdate = z.output<typeof adminUserSchema>;

/**
 * The pet's card (spec 7, PUT admin/update-pet): the pet form's fields with the registration's name
 * rule (at least 2 characters), the first chip's number (no confirmation: the administrator reads it
 * off the record), its brand, the Chip Enabled switch and the pet's enabled switch.
 */
export const adminPetSchema = requestObject({
  id: idField(messages.invalidId),
  ...petFields(limits.petNameMinRegistration, messages.petNameMin2),
  // Not on the admin form (spec 7): absent keeps the owner's choice.
  shareContactInfo: z.boolean({ error: messages.invalidChoice }).optional(),
  microchip1: textField(40, messages.lookupLength)
    .nullish()
    .transform((v) => normaliseChipId(v ?? ''))
    .superRefine((chipId, ctx) => {
      const problem = chipId ? chipNumberProblem(chipId) : null;
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  /** The new chip's brand; absent or null keeps the brand the pet's chip has. */
  chipTypeId: idField(messages.chipTypeRequired).nullish(),
  /** The switches, sent only when the administrator turned them: absent keeps what is stored (a payment made meanwhile, say). */
  isChipActive: z.boolean({ error: messages.invalidChoice }).optional(),
  isActive: z.boolean({ error: messages.invalidChoice }).optional(),
});
export type AdminPetInput = z.input<typeof adminPetSchema>;
export type AdminPetUpdate = z.output<typeof adminPetSchema>;

/**
 * `POST admin/transfer-pet/{petId}`: the new owner's e-mail, as spec 7 names the field. A pet with an
 * open lost pet alert moves only with `confirmOpenAlert` (the dialog's confirm step).
 */
export const transferPetSchema = requestObject({
  Email: emailField,
  confirmOpenAlert: z.boolean({ error: messages.invalidChoice }).optional(),
  /** The administrator read the dispute hold's warning and transfers anyway. */
  confirmHold: z.boolean({ error: messages.invalidChoice }).optional(),
});
export type TransferPetInput = z.infer<typeof transferPetSchema>;

/** The transfer dialog: the new owner's e-mail twice (spec 5). */
export const transferDialogSchema = z
  .object({ email: emailField, confirmEmail: textField(limits.emailMax, messages.emailsDoNotMatch) }, { error: messages.invalidRequest })
  .refine((v) => v.email.trim().toLowerCase() === v.confirmEmail.trim().toLowerCase(), {
    error: messages.emailsDoNotMatch,
    path: ['confirmEmail'],
  });
export type TransferDialogInput = z.infer<typeof transferDialogSchema>;

/** The owner as the administrator's card shows it: the profile/admin view of spec 3. */
export interface AdminUser extends User {
  data: User['data'] & {
    /** The card payment provider's customer id, when the owner ever paid. */
    paymentCustomerId: string | null;
    imageUrl: string | null;
    /** The protected-record flag: who set it, when and why; null when the record is not protected. */
    protection: RecordProtection | null;
    /** When the e-mail and the phone were last confirmed, and whether the e-mail bounces. */
    contactCheck: ContactCheck;
  };
}

/** The pet as the administrator's card shows it: the pet, its owner's id and its plan. */
export interface AdminPet extends Pet {
  userId: number;
  plan: { id: number; name: string; oneTime: boolean } | null;
  /**
   * Set when the pet was removed: the record stays for the audit (a chip search still leads here),
   * read-only, with when it went and the chip numbers it carried then (freed for another registration).
   */
  removed: { at: string; chipIds: string[] } | null;
  /** The dispute hold an administrator set: the owner cannot transfer the pet while it is on. */
  transferHold: PetTransferHold | null;
}

/** The owner's e-mails the support view lists, newest first; the mail log has the rest. */
export const adminPetRecentMails = 5;
/** The pet's payments the support view lists, newest first. */
export const adminPetRecentPayments = 10;

/**
 * `GET admin/pet-support/{petId}`: what a support agent answering a finder's or an owner's call reads
 * beside the two cards: whether the pet is lost, who else to call, its vets, what was paid, and the
 * last e-mails to the owner.
 */
export interface AdminPetSupport {
  /** The pet's open lost pet alert: NEW while unpaid (not sent), paid once sent. */
  lost: {
    status: Exclude<AlertStatus, 'found' | 'ended'>;
    /** Since when the pet is missing (ISO timestamp). */
    missingDate: string;
    /** Where it was last seen: the ZIP, and its place name when the ZIP table knows it. */
    zipCode: string;
    place: string | null;
    incidentDescription: string;
    sentAt: string | null;
    recipientsCount: number;
  } | null;
  /** The owner's backup contacts. */
  backupContacts: BackupContact[];
  /** The vets linked to the pet. */
  vets: { id: number; name: string; phoneNumber: string | null; place: string; isActive: boolean }[];
  /** Payments for the pet, newest first (also those of a previous owner). */
  payments: { id: number; createdAt: string; planName: string | null; amount: number; currency: string; status: string; cardLast4: string | null; payerEmail: string }[];
  /** The last e-mails to the owner's address, newest first. */
  mails: { id: number; subject: string; kind: MailKind; status: MailStatus; createdAt: string }[];
}

/** What a transfer answers (spec 7: a result message), and where the pet went. */
export interface PetTransfer {
  message: string;
  petId: number;
  userId: number;
  /** True when the new owner's account was made by the transfer (and invited to set a password). */
  newAccount: boolean;
}
