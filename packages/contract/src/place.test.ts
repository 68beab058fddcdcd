import { describe, expect, it } from 'vitest';
import { formatPlace } from './place.js';

describe('formatPlace', () => {
  it('writes a place as on an envelope: city, state and ZIP', () => {
    expect(formatPlace({ city: 'Saint Louis', state: 'MO', zip: '63101' })).toBe('Saint Louis, MO 63101');
    expect(formatPlace({ city: 'Winston-Salem', state: 'NC', zip: '27101' })).toBe('Winston-Salem, NC 27101');
  });
});
