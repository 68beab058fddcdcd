import type RequestClient from 'twilio/lib/base/RequestClient.js';
import type { TwilioSettings } from '../../config.js';
import { NumberRefusedError, TextOutcomeUnknownError, TextProviderUnavailableError, type Texter } from './index.js';

/** How long a call to Twilio may take before the text waits for the provider (its calls answer in well under a second). */
export const TWILIO_TIMEOUT_MS = 10_000;

/**
 * Twilio's refusals that no later try can change: an invalid number (21211), one that cannot be
 * reached (21214) or routed (21612), a landline (21614), a country the account may not text (21408),
 * and a number that answered STOP (21610).
 */
const refusedForGood = new Set([21211, 21214, 21408, 21610, 21612, 21614]);
/** Twilio's code for a recipient who answered STOP: the portal records the opt-out too. */
export const TWILIO_UNSUBSCRIBED = 21610;

/** Twilio's error answer as the SDK raises it (RestException, or TwilioServiceException for RFC 9457 answers). */
interface TwilioRefusal {
  status: number;
  code?: number;
  message?: string;
}
const isRefusal = (error: unknown): error is TwilioRefusal =>
  error instanceof Error && typeof (error as Partial<TwilioRefusal>).status === 'number';
/** The SDK's HTTP client (axios) failing before any answer: no connection, a reset, the timeout. */
const isNetworkError = (error: unknown) => error instanceof Error && (error as { isAxiosError?: boolean }).isAxiosError === true;
/** Network failures that happen before a request can reach Twilio: nothing was sent, so sending again is safe. */
const notConnected = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL']);

/**
 * How far before the timed-out attempt a message Twilio lists may have been created and still be
 * that attempt's: the two clocks differ a little, and the attempt started before its request left.
 */
const CLOCK_SLACK_MS = 5 * 60_000;
/** Messages to one number looked through, newest first: a retry follows its timeout within minutes. */
const LOOKUP_LIMIT = 20;

/** Sorts what Twilio answered into the adapter's errors: refused for good, unavailable (wait), or another failure (retried). */
export function twilioError(error: unknown): Error {
  if (isRefusal(error)) {
    const said = `Twilio ${error.status}${error.code ? ` (${error.code})` : ''}: ${error.message ?? 'no message'}`;
    if (error.code !== undefined && refusedForGood.has(error.code)) return new NumberRefusedError(said, { optedOut: error.code === TWILIO_UNSUBSCRIBED });
    if (error.status === 429 || error.status >= 500) return new TextProviderUnavailableError(said);
    return new Error(said);
  }
  if (isNetworkError(error)) {
    const said = `Twilio out of reach: ${error instanceof Error ? error.message : String(error)}`;
    const code = (error as { code?: string }).code;
    // A timeout or a connection cut after the request went out: Twilio may have taken the text.
    return code !== undefined && notConnected.has(code) ? new TextProviderUnavailableError(said) : new TextOutcomeUnknownError(said);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * A Twilio client, the SDK loaded with it (a sixth of a second, not at every start). With `apiUrl`
 * (a local Twilio-shaped server in tests) the SDK's own HTTP client sends there instead of Twilio's
 * hosts; the path, the credentials and the form body stay as the SDK wrote them.
 */
async function twilioClient(settings: TwilioSettings, timeoutMs: number) {
  const { default: twilio } = await import('twilio');
  class RedirectedRequestClient extends twilio.RequestClient {
    constructor(
      private readonly apiUrl: URL,
      options: ConstructorParameters<typeof twilio.RequestClient>[0],
    ) {
      super(options);
    }

    override request<TData>(options: RequestClient.RequestOptions<TData>) {
      const uri = new URL(options.uri);
      uri.protocol = this.apiUrl.protocol;
      uri.host = this.apiUrl.host;
      return super.request<TData>({ ...options, uri: uri.href });
    }
  }
  const httpOptions = { timeout: timeoutMs, keepAlive: true };
  const httpClient = settings.apiUrl ? new RedirectedRequestClient(new URL(settings.apiUrl), httpOptions) : new twilio.RequestClient(httpOptions);
  return twilio(settings.accountSid, settings.authToken, { httpClient });
}

/**
 * Texts through Twilio's Messages API. Each message asks Twilio to report its delivery to
 * `statusCallbackUrl`. Resolves with the message's SID. `findSent` reads Twilio's list of messages
 * to the number (from the portal's number, when it sends from one), newest first, for the same body
 * created since the timed-out attempt.
 */
export function createTwilioTexter(settings: TwilioSettings, statusCallbackUrl: string, timeoutMs = TWILIO_TIMEOUT_MS): Texter {
  let client: ReturnType<typeof twilioClient> | null = null;
  const connected = () => (client ??= twilioClient(settings, timeoutMs));
  return {
    async send(message) {
      try {
        const sent = await (await connected()).messages.create({ to: message.to, body: message.body, statusCallback: statusCallbackUrl, ...settings.sender });
        return { providerId: sent.sid };
      } catch (error) {
        throw twilioError(error);
      }
    },
    async findSent(message, since) {
      try {
        const from = 'from' in settings.sender ? { from: settings.sender.from } : {};
        const listed = await (await connected()).messages.list({ to: message.to, ...from, limit: LOOKUP_LIMIT, pageSize: LOOKUP_LIMIT });
        const after = since.getTime() - CLOCK_SLACK_MS;
        return listed.filter((m) => m.body === message.body && m.dateCreated && m.dateCreated.getTime() >= after).map((m) => m.sid);
      } catch (error) {
        // Whatever went wrong, it is not known whether the text went: it waits, unsent, for the next look.
        const failed = twilioError(error);
        throw failed instanceof TextProviderUnavailableError ? failed : new TextProviderUnavailableError(failed.message);
      }
    },
  };
}
