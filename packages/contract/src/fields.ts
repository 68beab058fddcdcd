/**
 * The input rules every request schema shares, one place each: record ids, text, dates, request
 * objects and free-form JSON. Each rule keeps out a value PostgreSQL would refuse (so no input
 * answers 500) and carries a message in the product's words (so no user reads zod's default text).
 */
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import { z } from 'zod';
import { messages } from './messages.js';

dayjs.extend(customParseFormat);

/** PostgreSQL's `integer`, the type of every id column: a larger id cannot name a record. */
export const maxRecordId = 2_147_483_647;

/** A positive whole number that fits an `integer` column, as JSON gives it or coerced from text. */
function recordId<N extends z.ZodNumber | z.ZodCoercedNumber>(number: N, message: string): N {
  // Each rule returns the same kind of schema it was given; TypeScript cannot follow that through a union.
  return number.int({ error: message }).positive({ error: message }).max(maxRecordId, { error: message }) as N;
}

/** A record id in a JSON body. */
export const idField = (message: string) => recordId(z.number({ error: message }), message);

/** A record id in a path or a query, where it arrives as text. */
export const idParam = (message: string = messages.invalidId) => recordId(z.coerce.number({ error: message }), message);

/**
 * Characters PostgreSQL refuses: NUL in text, and a lone UTF-16 surrogate (JSON allows "\ud800"),
 * which jsonb refuses outright, so a settings value or an audit record holding one would answer 500.
 */
const loneSurrogate = /\p{Cs}/u;
const hasRefusedCharacter = (text: string) => text.includes('\u0000') || loneSurrogate.test(text);

/**
 * Control characters (Unicode Cc: tab, line breaks, DEL, C1) and the Unicode line and paragraph
 * separators. In a one-line field they would forge lines in a plain-text e-mail or a mail header.
 */
const controlCharacter = /[\p{Cc}\u2028\u2029]/u;
/** The same, less the line breaks a text of several lines keeps. */
const controlCharacterBesideLineBreaks = /(?![\r\n])[\p{Cc}\u2028\u2029]/u;

/**
 * Text made one line where it is written out (a mail subject, a line of a plain-text e-mail): each
 * run of control characters becomes a space, so a value stored before the rule breaks no layout.
 */
export const oneLine = (text: string) => text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ');

/**
 * What a text field holds beyond printable text: one line (names, addresses, phones, e-mails, search
 * boxes: the default), several lines (notes, an incident told), or anything printable or not (a
 * password: never shown nor sent, and refusing a character would lock out whoever chose it).
 */
export type TextLines = 'one' | 'several' | 'secret';

/**
 * Text of at most `max` characters, never holding a character PostgreSQL refuses nor, unless it is
 * a secret, a control character. `required` is the message for a missing value or one that is not text.
 */
export function textField(max: number, tooLong: string, required: string = messages.invalidText, lines: TextLines = 'one') {
  const text = z
    .string({ error: required })
    .max(max, { error: tooLong, abort: true })
    .refine((v) => !hasRefusedCharacter(v), { error: messages.invalidCharacter, abort: true });
  if (lines === 'secret') return text;
  const refused = lines === 'one' ? controlCharacter : controlCharacterBesideLineBreaks;
  return text.refine((v) => !refused.test(v), { error: messages.controlCharacter, abort: true });
}

/** No pet was born, and no vaccine given, before this; it also keeps out year 0, which PostgreSQL refuses. */
const earliestDate = '1900-01-01';

/** A real calendar date sent as YYYY-MM-DD: 2024-02-30 and 2021-02-29 are not dates. */
export const dateField = z
  .string({ error: messages.invalidDate })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: messages.invalidDate, abort: true })
  .refine((v) => v >= earliestDate && dayjs(v, 'YYYY-MM-DD', true).isValid(), { error: messages.invalidDate });

/**
 * A date, or a date and time with its offset (hours 00-23, minutes and seconds 00-59, offsets to
 * ±14:59), as ISO 8601 writes them: 25:00, 10:61 and +99:00 are no time.
 */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-](0\d|1[0-4]):[0-5]\d))?$/;

/**
 * A moment: an ISO date-time with its offset, or a bare YYYY-MM-DD (midnight UTC), on a real
 * calendar date; sent on as UTC ISO. `required` is the message for a missing or empty value.
 * No rule aborts: an aborted field would keep a form's rules across fields from running beside it;
 * the transform runs only on a value every rule passed, so it never meets a time Date cannot read.
 */
export function timestampField(required: string) {
  return z
    .string({ error: required })
    .min(1, { error: required })
    .regex(ISO_DATE_TIME, { error: messages.invalidDate })
    .refine((v) => dateField.safeParse(v.slice(0, 10)).success && Number.isFinite(Date.parse(v)), { error: messages.invalidDate })
    .transform((v) => new Date(v).toISOString());
}

/**
 * The `when` of a rule across fields: it runs beside the other fields' errors, so a form shows them
 * all at once; not when one of its own fields failed, nor when the value was no object at all (an
 * issue without a field).
 */
export function whenFieldsParsed(fields: readonly string[]) {
  return (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }): boolean =>
    payload.issues.every((issue) => {
      const field = issue.path?.[0];
      return field !== undefined && !fields.includes(String(field));
    });
}

/** The top level of every JSON body and query: a form's fields, never bare `null` or a list. */
export function requestObject<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.object(shape, { error: messages.invalidRequest });
}

/** Largest nesting of a stored JSON value (user settings): deep enough for any screen's options. */
export const jsonDepthMax = 8;

/** How deep a JSON value nests; stops counting past `limit`, so a hostile value costs little. */
export function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > limit) return deepest;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}

function jsonHoldsRefusedCharacter(value: unknown): boolean {
  if (typeof value === 'string') return hasRefusedCharacter(value);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, child]) => hasRefusedCharacter(key) || jsonHoldsRefusedCharacter(child));
}

/** Free-form JSON kept for a user (UI settings): an object of bounded nesting and size. */
export function jsonObjectField(maxBytes: number, tooLarge: string) {
  return z
    .record(z.string({ error: tooLarge }).max(100, { error: tooLarge }), z.unknown(), { error: messages.invalidRequest })
    .refine((v) => jsonDepth(v, jsonDepthMax) <= jsonDepthMax, { error: tooLarge, abort: true })
    .refine((v) => JSON.stringify(v).length <= maxBytes, { error: tooLarge, abort: true })
    // jsonb refuses what text columns refuse, in keys and values alike.
    .refine((v) => !jsonHoldsRefusedCharacter(v), { error: messages.invalidCharacter });
}

/** A record id in the path: GET Pet/{id}, DELETE Users/BackupContact/{id}, … */
export const idParams = requestObject({ id: idParam() });

/** A public pet's or short link's id in the path; random text, never a record id. */
export const publicIdParams = requestObject({ id: textField(64, messages.notFound) });

/** A stored image's file name in the path. */
export const fileParams = requestObject({ file: textField(100, messages.notFound) });

/** Square copies of a pet's photo for its public profile, in pixels: its 144 CSS pixels at 1x, 2x and 3x screens. */
export const petPhotoSizes = [144, 288, 432] as const;

/** `?size=`: a square copy of the photo that size, instead of the photo as stored. */
export const petImageQuery = requestObject({
  size: z.enum(petPhotoSizes.map(String) as [string, ...string[]], { error: messages.notFound }).transform(Number).optional(),
});

/** A payment provider's checkout session id in the path. */
export const sessionIdParams = requestObject({
  sessionId: textField(255, messages.checkoutClosed).min(1, { error: messages.checkoutClosed }),
});
