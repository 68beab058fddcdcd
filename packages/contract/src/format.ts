import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);

/** Dates shown to people: MM/DD/YYYY. */
export function formatDate(value: string | Date | null | undefined): string {
  return value ? dayjs(value).format('MM/DD/YYYY') : '';
}

/** Dates sent to the API: YYYY-MM-DD, or null. */
export function toApiDate(value: string | Date | null | undefined): string | null {
  return value ? dayjs(value).format('YYYY-MM-DD') : null;
}

/** Registered-until dates: MMM DD, YYYY, the UTC day the server stored, whatever the browser's time zone. */
export function formatRegisteredUntil(value: string | Date): string {
  return dayjs.utc(value).format('MMM DD, YYYY');
}
