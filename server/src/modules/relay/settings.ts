import { z } from 'zod';

/**
 * The inbound mail listener's settings (issue 19): replies to lost pet alert e-mails reach the owner
 * through the portal. Unset (the embedded default), alert e-mails carry no relay address.
 */
export interface InboundMailSettings {
  /** The domain whose mail (its MX) reaches the listener: alert e-mails' Reply-To is reply-<token>@ it. */
  domain: string;
  host: string;
  port: number;
  /** The largest message taken, in bytes (announced with SIZE, refused past it). */
  maxBytes: number;
}

const domainName = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** The variables, parsed with the rest of the environment in config.ts. */
export const inboundMailEnv = {
  INBOUND_MAIL_DOMAIN: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v.toLowerCase() : undefined))
    .refine((v) => v === undefined || domainName.test(v), 'must be a domain name, such as replies.example.org'),
  INBOUND_SMTP_HOST: z.string().trim().min(1).default('0.0.0.0'),
  INBOUND_SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(2525),
  INBOUND_MAIL_MAX_KB: z.coerce.number().int().min(16).max(10_240).default(256),
};

type InboundMailEnv = { [K in keyof typeof inboundMailEnv]: z.output<(typeof inboundMailEnv)[K]> };

export function inboundMailOf(e: InboundMailEnv): InboundMailSettings | null {
  if (!e.INBOUND_MAIL_DOMAIN) return null;
  return { domain: e.INBOUND_MAIL_DOMAIN, host: e.INBOUND_SMTP_HOST, port: e.INBOUND_SMTP_PORT, maxBytes: e.INBOUND_MAIL_MAX_KB * 1024 };
}
