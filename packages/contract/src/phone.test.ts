import { describe, expect, it } from 'vitest';
import { isValidPhone, normalisePhone } from './phone.js';

describe('phone numbers', () => {
  it.each([
    ['(415) 555-2671', '+14155552671'],
    ['415.555.2671', '+14155552671'],
    ['1 415 555 2671', '+14155552671'],
    ['+1 415 555 2671', '+14155552671'],
  ])('normalises %s to +1 and 10 digits', (input, expected) => {
    expect(normalisePhone(input)).toBe(expected);
    expect(isValidPhone(input)).toBe(true);
  });

  it('refuses what cannot be a number', () => {
    expect(isValidPhone('555-0000')).toBe(false);
    expect(isValidPhone('hello')).toBe(false);
    expect(normalisePhone('hello')).toBeNull();
  });
});
