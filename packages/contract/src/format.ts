import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);

/** Dates shown to people: MM/DD/YYYY. */
export function formatDate(value: string | Date | null | undefined): string {
  return value ? dayjs(value).format('MM/DD/YYYY') : '';
}

/** A moment in the reader's time zone, as the portal's screens show it: 11/25/2026 7:05 PM. */
export function formatDateTime(value: string | Date): string {
  return dayjs(value).format('MM/DD/YYYY h:mm A');
}

/** Dates sent to the API: YYYY-MM-DD, or null. */
export function toApiDate(value: string | Date | null | undefined): string | null {
  return value ? dayjs(value).format('YYYY-MM-DD') : null;
}

/** Registered-until dates: MMM DD, YYYY, the UTC day the server stored, whatever the browser's time zone. */
export function formatRegisteredUntil(value: string | Date): string {
  return dayjs.utc(value).format('MMM DD, YYYY');
}

/**
 * Shows a stored +1 number as (xxx) xxx - xxxx; other numbers as they are stored. Plain digits, not
 * the phone-number library: the public profile shows numbers without loading its metadata.
 */
export function formatPhone(value: string | null | undefined): string {
  if (!value) return '';
  const digits = value.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (national.length !== 10) return value;
  return `(${national.slice(0, 3)}) ${national.slice(3, 6)} - ${national.slice(6)}`;
}
