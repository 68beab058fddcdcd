import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatPhone, formatRegisteredUntil, toApiDate } from './format.js';

describe('dates', () => {
  it('shows MM/DD/YYYY, sends YYYY-MM-DD or null, and registered-until as MMM DD, YYYY', () => {
    expect(formatDate('2024-01-05')).toBe('01/05/2024');
    expect(formatDate(null)).toBe('');
    expect(toApiDate(new Date(2024, 0, 5))).toBe('2024-01-05');
    expect(toApiDate('')).toBeNull();
    expect(formatRegisteredUntil('2027-03-09')).toBe('Mar 09, 2027');
    expect(formatRegisteredUntil('2027-03-09T00:30:00.000Z')).toBe('Mar 09, 2027');
  });

  it('shows a moment as MM/DD/YYYY h:mm AM/PM in the reader\'s time zone', () => {
    expect(formatDateTime(new Date(2026, 10, 25, 19, 5))).toBe('11/25/2026 7:05 PM');
    expect(formatDateTime(new Date(2026, 0, 2, 0, 30))).toBe('01/02/2026 12:30 AM');
  });
});

describe('phone numbers', () => {
  it('shows a stored number as (xxx) xxx - xxxx', () => {
    expect(formatPhone('+14155552671')).toBe('(415) 555 - 2671');
    expect(formatPhone('4155552671')).toBe('(415) 555 - 2671');
    expect(formatPhone('+442071838750')).toBe('+442071838750');
    expect(formatPhone(null)).toBe('');
  });
});
