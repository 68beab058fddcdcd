import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { emailField, oneLine } from '@petreg/contract';
import nodemailer, { type Transporter } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where replies go: one address (`singleAddress`), or no Reply-To header. */
  replyTo?: string;
  /** Extra header lines, such as List-Unsubscribe and List-Unsubscribe-Post of a bulk e-mail. */
  headers?: Record<string, string>;
  /** The same on every try of one message, so a receiving server or mail client can drop a second copy. */
  messageId?: string;
}

export interface Mailer {
  /** Resolves once the mail server accepted the message (or the outbox file is written). */
  send(message: MailMessage): Promise<void>;
  /** Closes the pooled connections to the mail server. */
  close?(): void;
}

/** The mail server refused the recipient or the message for good (a 5xx answer): sending again cannot deliver it. */
export class RecipientRefusedError extends Error {}

/**
 * The mail server could not be reached or used (no connection, a timeout, TLS or sign-in failing, or
 * 421 "service not available"): no fault of the message, which can only wait for the server.
 */
export class MailServerUnavailableError extends Error {}

type NodemailerError = Error & { code?: string; command?: string; responseCode?: number; response?: string };

/** nodemailer's error codes for a server out of reach, rather than one that answered about this message. */
const UNAVAILABLE_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ETLS', 'EAUTH']);

/** nodemailer's error in the adapter's terms; temporary refusals (4xx) and anything else stay as they are, to be retried. */
function classified(error: unknown): unknown {
  const e = error as NodemailerError;
  if ((e.code === 'EENVELOPE' || e.code === 'EMESSAGE') && (e.responseCode ?? 0) >= 500) {
    return new RecipientRefusedError(e.response ?? e.message, { cause: error });
  }
  if ((e.code && UNAVAILABLE_CODES.has(e.code)) || e.responseCode === 421) return new MailServerUnavailableError(e.message, { cause: error });
  return error;
}

/**
 * The text as one plain e-mail address, as nodemailer reads address headers, or null: a stored
 * value holding a comma, a line break, a display name or a group would put a second address (or
 * header) where one is meant, so it is no address at all here.
 */
export function singleAddress(value: string): string | null {
  const parsed = addressparser(value);
  const only = parsed.length === 1 ? parsed[0]! : null;
  if (!only || 'group' in only || only.name || only.address !== value) return null;
  return emailField.safeParse(value).success ? value : null;
}

/**
 * The message as nodemailer takes it, its headers safe: the subject on one line (a line break in a
 * header would start another header), a Reply-To only when it is one plain address.
 */
function headerSafe(from: string, { replyTo, ...message }: MailMessage) {
  const replyAddress = replyTo === undefined ? null : singleAddress(replyTo);
  return { from, ...message, subject: oneLine(message.subject), ...(replyAddress && { replyTo: replyAddress }) };
}

/**
 * Sends through SMTP when a URL is configured, over pooled connections so a run of alert e-mails
 * does not open one connection each; otherwise nodemailer renders the same message and it is kept
 * as an .eml file under `outboxDir`, where people and tests can open it.
 */
export function createMailer(options: { smtpUrl?: string; from: string; outboxDir: string }): Mailer {
  if (options.smtpUrl) {
    // A stalled connection gives up within a minute: the e-mails then wait for the mail server (see SERVER_PAUSE_MS) instead of each stalling in turn.
    const transport = nodemailer.createTransport({ url: options.smtpUrl, pool: true, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 });
    return {
      async send(message) {
        try {
          await transport.sendMail(headerSafe(options.from, message));
        } catch (error) {
          throw classified(error);
        }
      },
      close: () => transport.close(),
    };
  }
  const transport: Transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  // Names sort in the order this process wrote them, within a millisecond too, and if the clock is
  // set back (two e-mails to one person, the newer last).
  let written = 0;
  let lastMs = 0;
  return {
    async send(message) {
      const info = await transport.sendMail(headerSafe(options.from, message));
      await mkdir(options.outboxDir, { recursive: true });
      lastMs = Math.max(Date.now(), lastMs);
      const name = `${new Date(lastMs).toISOString().replace(/[:.]/g, '-')}-${String(++written).padStart(9, '0')}-${randomUUID()}.eml`;
      await writeFile(join(options.outboxDir, name), info.message as Buffer);
    },
  };
}
