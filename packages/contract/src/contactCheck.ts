/**
 * "Is this still how we reach you?": the owner's e-mail and mobile asked about every few months
 * (CONTACT_RECONFIRM_MONTHS) and after a message to them failed, confirmed with one click on a signed link.
 */
import { requestObject, textField } from './fields.js';
import { messages } from './messages.js';

export const contactCheckRules = {
  /** The dashboard asks the owner to confirm once their contacts went unconfirmed this long. */
  staleAfterMonths: 12,
  /** How long the mailed or texted link confirms. */
  linkLifetimeDays: 30,
} as const;

/** `POST public/contacts/confirm`: the signed link's token, from the e-mail or the text. */
export const confirmContactsSchema = requestObject({
  token: textField(300, messages.contactsLinkInvalid, messages.contactsLinkInvalid).trim().min(1, { error: messages.contactsLinkInvalid }),
});

/** What the confirmation page says: which way the link came, and whether the e-mail still bounces. */
export interface ContactsConfirmed {
  channel: 'email' | 'sms';
  emailBounced: boolean;
}

/** The owner's contacts as the dashboard and the admin record show them. */
export interface ContactCheck {
  /** When the e-mail was last confirmed (a mailed link followed, or a "still how we reach you" confirmation); null: never. */
  emailConfirmedAt: string | null;
  /** When the mobile number was last confirmed (its texted code, or a confirmation); null: never, or no number. */
  phoneConfirmedAt: string | null;
  /** A mail to the address was refused for good, and the address was not proven since. */
  emailBounced: boolean;
  /** Nothing confirmed the contacts for more than contactCheckRules.staleAfterMonths. */
  stale: boolean;
}
