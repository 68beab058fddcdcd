import { normalisePhone } from '@petreg/contract';
import { z } from 'zod';
import { ConfigError } from '../../configError.js';

/** Texts through Twilio when its account is set; otherwise files under DATA_DIR/sms. */
export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** The sender: a Twilio number (E.164), or a Messaging Service that picks one. */
  sender: { from: string } | { messagingServiceSid: string };
  apiUrl: string | undefined;
}

const optional = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/** The variables, parsed with the rest of the environment in config.ts. */
export const twilioEnv = {
  TWILIO_ACCOUNT_SID: optional.refine((v) => !v || /^AC[0-9a-f]{32}$/i.test(v), 'must be an account SID (AC followed by 32 hexadecimal digits)'),
  TWILIO_AUTH_TOKEN: optional,
  TWILIO_FROM: optional.refine((v) => !v || normalisePhone(v) !== null, 'must be a phone number'),
  TWILIO_MESSAGING_SERVICE_SID: optional.refine((v) => !v || /^MG[0-9a-f]{32}$/i.test(v), 'must be a Messaging Service SID (MG followed by 32 hexadecimal digits)'),
  // Where the Twilio SDK sends its calls instead of api.twilio.com: a local Twilio-shaped server in tests.
  TWILIO_API_URL: optional.pipe(z.url().optional()),
};

type TwilioEnv = { [K in keyof typeof twilioEnv]?: z.output<(typeof twilioEnv)[K]> };

/** Twilio takes its account, its token and a sender together, or none of them. */
export function twilioOf(e: TwilioEnv): TwilioSettings | null {
  const sender = e.TWILIO_FROM ?? e.TWILIO_MESSAGING_SERVICE_SID;
  if (!e.TWILIO_ACCOUNT_SID && !e.TWILIO_AUTH_TOKEN && !sender) return null;
  const missing = [!e.TWILIO_ACCOUNT_SID && 'TWILIO_ACCOUNT_SID', !e.TWILIO_AUTH_TOKEN && 'TWILIO_AUTH_TOKEN', !sender && 'TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID'].filter(Boolean);
  if (missing.length) {
    throw new ConfigError(`Invalid configuration: Twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID together (missing ${missing.join(', ')})`);
  }
  if (e.TWILIO_FROM && e.TWILIO_MESSAGING_SERVICE_SID) {
    throw new ConfigError('Invalid configuration: set TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID, not both');
  }
  return {
    accountSid: e.TWILIO_ACCOUNT_SID!,
    authToken: e.TWILIO_AUTH_TOKEN!,
    sender: e.TWILIO_FROM ? { from: normalisePhone(e.TWILIO_FROM)! } : { messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID! },
    apiUrl: e.TWILIO_API_URL?.replace(/\/$/, ''),
  };
}
