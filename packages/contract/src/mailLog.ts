/**
 * The mail log (admin-send-email): every e-mail and text the portal sent or will send, from its
 * three queues: the mail outbox (account, payment and alert-confirmation e-mails), the alert e-mails
 * to pet-care professionals, and the texts (SMS).
 */
import { z } from 'zod';
import { idParam, requestObject, textField } from './fields.js';
import type { CountedMatches } from './constants.js';
import { messages } from './messages.js';
import { textKinds, type TextKind } from './texts.js';

/** Which queue a message waits in: the mail outbox, the alert e-mails, or the texts. */
export const mailQueues = ['outbox', 'alert', 'text'] as const;
export type MailQueue = (typeof mailQueues)[number];

/** What an e-mail is about, as the log shows it. */
export const mailKinds = {
  'password-reset': 'Password reset',
  'email-change': 'E-mail change',
  'email-confirmation': 'E-mail confirmation',
  invitation: 'Account invitation',
  transfer: 'Pet transfer',
  'shelter-upload': 'Pets registered by a shelter',
  receipt: 'Payment receipt',
  'alert-sent': 'Alert sent (to the owner)',
  alert: 'Lost pet alert',
  found: 'Found, thank you',
  'found-report': 'Found report (to the owner)',
  'finder-contact': "Owner's number (to the finder)",
  'found-report-vet': "Found report (to the pet's vet)",
  'renewal-reminder': 'Plan renewal reminder',
  'cover-lapsed': 'Cover lapsed',
  'chip-scan-reminder': 'Chip scan reminder',
  'contacts-check': 'Is this still how we reach you?',
} as const;
export type MailKind = keyof typeof mailKinds;

/** What a message of the log is about, in words: an e-mail's kind, or a text's. */
export const loggedKindLabel = (queue: MailQueue, kind: MailKind | TextKind): string =>
  queue === 'text' ? textKinds[kind as TextKind] : mailKinds[kind as MailKind];

/** Where an e-mail stands: waiting, being handed to the mail server, done, refused, given up, or no longer due. */
export const mailStatuses = ['pending', 'sending', 'sent', 'delivered', 'bounced', 'failed', 'canceled'] as const;
export type MailStatus = (typeof mailStatuses)[number];

/** The log shows this many e-mails a page, newest first. */
export const mailLogPageSize = 50;

/** GET admin/mail?query=&page=: the query matches part of the recipient's address, or a phone number typed any way. */
export const mailLogQuery = requestObject({
  query: textField(255, messages.emailTooLong).trim().optional(),
  page: z.coerce.number({ error: messages.invalidRequest }).int({ error: messages.invalidRequest }).min(1, { error: messages.invalidRequest }).max(100_000, { error: messages.invalidRequest }).default(1),
});

/** GET admin/mail/{queue}/{id} and POST …/resend. */
export const mailParams = requestObject({
  queue: z.enum(mailQueues, { error: messages.invalidRequest }),
  id: idParam(),
});

/** A row of the mail log. */
export interface MailLogEntry {
  queue: MailQueue;
  id: number;
  /** An e-mail address, or a text's phone number (E.164). */
  recipient: string;
  /** A text has none: its first words stand for it. */
  subject: string;
  kind: MailKind | TextKind;
  status: MailStatus;
  /** A text's delivery as the SMS provider last reported it (Twilio's MessageStatus); null for e-mails. */
  deliveryStatus: string | null;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  /** Handed to the mail server or SMS provider (or written to the embedded outbox). */
  sentAt: string | null;
}

export interface MailLogPage extends CountedMatches {
  items: MailLogEntry[];
}

/** One e-mail opened from the log: its plain text as sent (alert e-mails: as the worker renders them). */
export interface MailLogMessage extends MailLogEntry {
  text: string;
}
