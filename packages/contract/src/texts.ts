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
} as const;
export type TextKind = keyof typeof textKinds;

/** Where a text stands: waiting, being handed to the provider, handed over, given up, or not sent (the number answered STOP). */
export const textStatuses = ['pending', 'sending', 'sent', 'failed', 'canceled'] as const;
export type TextStatus = (typeof textStatuses)[number];

/** One text is at most this long: ten SMS segments of plain GSM characters, a provider's usual ceiling. */
export const textMaxLength = 1600;
