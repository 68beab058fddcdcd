import { describe, expect, it } from 'vitest';
import { formatPlace } from './place.js';

describe('formatPlace', () => {
  it('writes a place as on an envelope: city, state and ZIP', () => {
    expect(formatPlace({ city: 'Saint Louis', state: 'MO', zip: '63101' })).toBe('Saint Louis, MO 63101');
    expect(formatPlace({ city: 'Winston-Salem', state: 'NC', zip: '27101' })).toBe('Winston-Salem, NC 27101');
  });

  it('leaves out what is not known (an address without a ZIP, a profile without a city)', () => {
    expect(formatPlace({ city: 'Saint Louis', state: 'MO', zip: null })).toBe('Saint Louis, MO');
    expect(formatPlace({ city: null, state: 'MO', zip: '63101' })).toBe('MO 63101');
    expect(formatPlace({ city: 'Saint Louis' })).toBe('Saint Louis');
    expect(formatPlace({ city: '', state: null, zip: undefined })).toBe('');
  });
});
