import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** True when the text is a dialable US (or +country) phone number. */
export function isValidPhone(value: string): boolean {
  return isValidPhoneNumber(value, 'US');
}

/**
 * Phone normalisation of spec section 5: +1 followed by 10 digits for North American numbers,
 * E.164 for others. Returns null when the text is not a phone number at all.
 */
export function normalisePhone(value: string): string | null {
  const parsed = parsePhoneNumberFromString(value, 'US');
  return parsed ? parsed.number : null;
}
