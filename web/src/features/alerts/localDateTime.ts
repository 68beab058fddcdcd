/**
 * A date-and-time input speaks the browser's local time without a zone ("2024-01-01T15:00"); the
 * form keeps the moment as a UTC ISO timestamp, which the API takes and the public profile shows in
 * its reader's zone.
 */
const pad = (n: number) => String(n).padStart(2, '0');

function localDateTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The input's text as a UTC ISO timestamp; an empty or unfinished input stays empty. */
export function fromLocalDateTime(text: string): string {
  const date = new Date(text);
  return text && !Number.isNaN(date.getTime()) ? date.toISOString() : '';
}

/** A stored timestamp as the input's text. */
export function toLocalDateTime(value: unknown): string {
  if (typeof value !== 'string' || !value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : localDateTime(date);
}

/** The latest moment the input offers: a pet cannot go missing in the future. */
export const nowAsLocalDateTime = () => localDateTime(new Date());
