import type { Breadcrumb, ErrorEvent } from '@sentry/node';

/**
 * What an error report must never carry, found in any text of it (an error's message, a cause's,
 * a breadcrumb): e-mail addresses, tokens, IP addresses, phone numbers and chip numbers. Order
 * matters: an e-mail or a token is taken whole before its digits could pass for a phone or a chip.
 */
const patterns: [RegExp, string][] = [
  [/[\w.!#$%&'*+/=?^`{|}~-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi, '[email]'],
  [/\b(Bearer|Basic)\s+[\w.~+/=-]+/gi, '$1 [redacted]'],
  // A JSON web token (a session's, a link's).
  [/\beyJ[\w-]*\.[\w-]*\.[\w-]*/g, '[token]'],
  [/\b(token|access_token|refresh_token|key|api_key|apikey|code|secret|password|signature|sig|session)=[^&\s"',;]+/gi, '$1=[redacted]'],
  // Long random strings: reset and unsubscribe codes, API keys, signatures (letters and digits mixed).
  [/(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[a-z])[\w-]{20,}(?![\w-])/gi, '[token]'],
  [/(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d.])/g, '[ip]'],
  [/(?<![\w:])(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}(?![\w:])|(?<![\w:])(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){0,6})?::(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){0,6})?(?![\w:])/gi, '[ip]'],
  [/(?<![\w+])(?:\+?1[\s.-]?)?\(?[2-9]\d{2}\)?[\s.-]?\d{3}[\s.-]?\d{4}(?!\w)|\+\d{8,15}(?!\w)/g, '[phone]'],
  // AVID's 9 digits, ISO's 15, or 10 hexadecimal characters with a digit among them.
  [/(?<![\w-])(?:\d{15}|\d{9}|(?=[0-9a-f]{0,9}\d)[0-9a-f]{10})(?![\w-])/gi, '[chip]'],
];

/**
 * A text with the personal data above replaced, and the parameters a failed query lists (drizzle
 * appends them: names, addresses, password hashes) cut, as the log cuts them.
 */
export function scrubText(text: string): string {
  let scrubbed = text.replace(/\nparams:[\s\S]*$/, '');
  for (const [pattern, replacement] of patterns) scrubbed = scrubbed.replace(pattern, replacement);
  return scrubbed;
}

/** A path segment that may name someone or something of theirs: a chip, an id, a code (a digit in it, but not the API's version), or a long one. */
const personalSegment = (segment: string) => (/\d/.test(segment) && !/^v\d+$/i.test(segment)) || segment.length > 24;

/**
 * A request's address as a report may keep it: every query value dropped (tokens, chip numbers,
 * e-mails go there), and each path segment that may be personal replaced.
 */
export function scrubUrl(url: string): string {
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  const query = at < 0 ? undefined : url.slice(at + 1);
  const segments = path.split('/').map((segment) => (personalSegment(segment) ? '[redacted]' : scrubText(segment)));
  const keys = query === undefined ? [] : [...new URLSearchParams(query).keys()];
  return segments.join('/') + (keys.length ? `?${keys.map((key) => `${encodeURIComponent(key)}=[redacted]`).join('&')}` : '');
}

/** Parts of an event that hold no personal data and must keep their form: frames (files, lines), ids, the SDK's own. */
const untouched = new Set(['stacktrace', 'sdk', 'sdkProcessingMetadata', 'debug_meta', 'event_id', 'trace_id', 'span_id', 'parent_span_id', 'timestamp', 'start_timestamp']);

function scrubDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (depth > 12 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, untouched.has(key) ? inner : scrubDeep(inner, depth + 1)]));
}

/**
 * Sentry's beforeSend: no user, no request body, headers, cookies or environment (names, tokens,
 * addresses), the address scrubbed, and every other text of the event through `scrubText`.
 */
export function scrubEvent(event: ErrorEvent): ErrorEvent {
  const { user: _user, request, ...rest } = event;
  const scrubbed = scrubDeep(rest) as ErrorEvent;
  if (request) scrubbed.request = { method: request.method, ...(request.url && { url: scrubUrl(request.url) }) };
  return scrubbed;
}

/** Sentry's beforeBreadcrumb: its message and data through `scrubText`, an address through `scrubUrl`. */
export function scrubBreadcrumb(breadcrumb: Breadcrumb): Breadcrumb {
  const { url, ...data } = (breadcrumb.data ?? {}) as Record<string, unknown>;
  return {
    ...breadcrumb,
    ...(breadcrumb.message && { message: scrubText(breadcrumb.message) }),
    ...(breadcrumb.data && { data: { ...(scrubDeep(data) as object), ...(typeof url === 'string' && { url: scrubUrl(url) }) } }),
  };
}
