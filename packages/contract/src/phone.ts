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

/** Shows a stored +1 number as (xxx) xxx - xxxx; other numbers as they are stored. */
export function formatPhone(value: string | null | undefined): string {
  if (!value) return '';
  const digits = value.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (national.length !== 10) return value;
  return `(${national.slice(0, 3)}) ${national.slice(3, 6)} - ${national.slice(6)}`;
}
