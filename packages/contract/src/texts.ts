/**
 * Texts (SMS) the portal sends. They wait in the text outbox and appear in the mail log beside the
 * e-mails.
 */

/** What a text is about, as the mail log shows it. */
export const textKinds = {
  'found-report': 'Found report (to the owner)',
  'found-report-backup': 'Found report (to a backup contact)',
  'finder-contact': "Owner's number (to the finder)",
  'phone-code': 'Phone number code',
  'backup-contact-confirmation': 'Backup contact confirmation',
  'alert-sent': 'Alert sent (to the owner)',
  'contacts-check': 'Is this still how we reach you?',
} as const;
export type TextKind = keyof typeof textKinds;

/** Where a text stands: waiting, being handed to the provider, handed over, given up, or not sent (the number answered STOP). */
export const textStatuses = ['pending', 'sending', 'sent', 'failed', 'canceled'] as const;
export type TextStatus = (typeof textStatuses)[number];

/** A phone code works this long, for at most this many wrong tries; an account gets at most this many an hour. */
export const phoneCodeRules = { lifetimeMinutes: 10, maxWrongTries: 5, perHour: 3 } as const;

/** Confirmation texts an account may send its backup contacts in an hour (adding, changing a number, resending). */
export const backupContactConfirmationsPerHour = 5;

/** One text is at most this long: ten SMS segments of plain GSM characters, a provider's usual ceiling. */
export const textMaxLength = 1600;
