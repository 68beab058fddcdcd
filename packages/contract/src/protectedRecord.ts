/**
 * The protected-record flag (issue 20): an administrator hides an owner from everyone who finds or looks
 * up the owner's pets, for a dispute or a domestic-abuse case. It is the account's, so every pet of the
 * person is covered, the ones registered later too.
 */
import { z } from 'zod';
import { requestObject, textField } from './fields.js';
import { messages } from './messages.js';

export const protectionReasonMin = 5;
export const protectionReasonMax = 500;

/** `PUT admin/protected-record/{userId}`: set (`protect: true`) or clear the flag, always saying why. */
export const protectedRecordSchema = requestObject({
  protect: z.boolean({ error: messages.invalidChoice }),
  reason: textField(protectionReasonMax, messages.protectionReasonTooLong, messages.protectionReasonRequired, 'several')
    .trim()
    .min(protectionReasonMin, { error: messages.protectionReasonRequired }),
});
export type ProtectedRecordInput = z.input<typeof protectedRecordSchema>;
export type ProtectedRecordUpdate = z.output<typeof protectedRecordSchema>;

/** The flag as the administrator's record shows it: when, by whom and why it was set; null when not set. */
export interface RecordProtection {
  since: string;
  /** The administrator who set it: their name, or their e-mail when they gave no name. */
  by: string;
  reason: string;
}
