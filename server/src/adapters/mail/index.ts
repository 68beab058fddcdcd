import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra header lines, such as List-Unsubscribe and List-Unsubscribe-Post of a bulk e-mail. */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Resolves once the mail server accepted the message (or the outbox file is written). */
  send(message: MailMessage): Promise<void>;
  /** Closes the pooled connections to the mail server. */
  close?(): void;
}

/** The mail server refused the recipient for good (a 5xx answer to RCPT TO): sending again cannot deliver it. */
export class RecipientRefusedError extends Error {}

/** nodemailer's error for a recipient the server refused; temporary refusals (4xx) and lost connections are retried. */
function isPermanentRecipientRefusal(error: unknown): error is Error & { response?: string } {
  const e = error as { code?: string; command?: string; responseCode?: number };
  return e.code === 'EENVELOPE' && e.command === 'RCPT TO' && (e.responseCode ?? 0) >= 500;
}

/**
 * Sends through SMTP when a URL is configured, over pooled connections so a run of alert e-mails
 * does not open one connection each; otherwise nodemailer renders the same message and it is kept
 * as an .eml file under `outboxDir`, where people and tests can open it.
 */
export function createMailer(options: { smtpUrl?: string; from: string; outboxDir: string }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport({ url: options.smtpUrl, pool: true });
    return {
      async send(message) {
        try {
          await transport.sendMail({ from: options.from, ...message });
        } catch (error) {
          if (isPermanentRecipientRefusal(error)) throw new RecipientRefusedError(error.response ?? error.message, { cause: error });
          throw error;
        }
      },
      close: () => transport.close(),
    };
  }
  const transport: Transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      await mkdir(options.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      await writeFile(join(options.outboxDir, name), info.message as Buffer);
    },
  };
}
