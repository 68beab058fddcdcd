import { describe, expect, it } from 'vitest';
import { chipManufacturers, chipSources } from './chipManufacturers.js';
import { describeChipNumber, isSharedCodeChip, isTestChip, microchipLookupSchema, openLookupParams } from './lookup.js';
import { messages } from './messages.js';

const lookupError = (id: string) => microchipLookupSchema.safeParse({ id }).error?.issues[0]?.message;

describe('microchip lookup length rule', () => {
  it.each(['123456789', '0A12345678', '985141000123456', 'AVID*123*456*789', '985 141 000 123 456'])(
    'accepts %s',
    (id) => {
      expect(microchipLookupSchema.safeParse({ id }).success).toBe(true);
    },
  );

  it.each(['12345678', '12345678901', '1234567890123', '9851410001234567', ''])('refuses %s with the spec message', (id) => {
    expect(lookupError(id)).toBe(messages.lookupLength);
  });

  it('searches the number as the registry stores it', () => {
    expect(microchipLookupSchema.parse({ id: ' avid*123*456*789 ' })).toEqual({ id: '123456789' });
  });

  it('normalises the number within its string schema, with no transform (a pipe cost the lookup an eighth to a fifth of its CPU)', () => {
    expect(microchipLookupSchema.shape.id.def.type).toBe('string');
    expect(openLookupParams.shape.chip.def.type).toBe('string');
  });

  it.each([
    ['9'.repeat(41), messages.lookupLength],
    ['123\u0000456789', messages.invalidCharacter],
    ['\t123456789', messages.controlCharacter],
    [['123456789', '987654321'], messages.lookupLength],
    [undefined, messages.lookupLength],
  ])('refuses %j with one message, the first rule it breaks', (id, message) => {
    expect(microchipLookupSchema.safeParse({ id }).error?.issues.map((issue) => issue.message)).toEqual([message]);
  });
});

describe('manufacturer table', () => {
  it.each([
    ['985141000123456', 'Destron Fearing / HomeAgain'],
    ['982000123456789', 'Allflex / 24PetWatch'],
    ['981020000123456', 'Datamars / PetLink (Found Animals)'],
    ['981010000123456', 'Datamars / Banfield'],
    ['981030000123456', 'Datamars'],
    ['977200000123456', 'AVID'],
    ['956000001234567', 'Trovan / AKC Reunite'],
    ['968000001234567', 'AEG'],
    ['941000012345678', 'Felixcan / PetKey'],
    ['941010012345678', 'Felixcan'],
    ['933000012345678', 'Buddy ID'],
    ['900164000123456', 'Save This Life'],
    ['900123000123456', 'Shared code of several small vendors'],
    ['999000000000001', 'Test code, never issued to a pet chip'],
  ])('reads the ISO number %s as %s', (chipId, manufacturer) => {
    expect(describeChipNumber(chipId)).toEqual({ format: 'iso', manufacturer, countryCode: null });
  });

  it('reads 001–899 as a country code, not a manufacturer', () => {
    expect(describeChipNumber('840098100123456')).toEqual({ format: 'iso', manufacturer: null, countryCode: '840' });
    expect(describeChipNumber('001000000000001').countryCode).toBe('001');
    expect(describeChipNumber('000000000000001')).toEqual({ format: 'iso', manufacturer: null, countryCode: null });
    expect(describeChipNumber('950000000000001')).toEqual({ format: 'iso', manufacturer: null, countryCode: null });
  });

  it.each([
    ['0A12345678', 'tenCharacter', '24PetWatch'],
    ['00AB123456', 'tenCharacter', 'Trovan / AKC Reunite'],
    ['4A12345678', 'tenCharacter', 'AVID or HomeAgain (FDX-A)'],
    ['123456789', 'nineDigit', 'AVID'],
  ])('reads %s as %s from %s', (chipId, format, manufacturer) => {
    expect(describeChipNumber(chipId)).toEqual({ format, manufacturer, countryCode: null });
  });

  it('knows no format for a number that fits none', () => {
    expect(describeChipNumber('98514100012345A')).toEqual({ format: null, manufacturer: null, countryCode: null });
    expect(describeChipNumber('0G12345678').format).toBeNull();
  });

  it('names a known source for every row, and no prefix twice', () => {
    for (const row of chipManufacturers) {
      expect(row.sources.length).toBeGreaterThan(0);
      for (const source of row.sources) expect(chipSources[source]).toBeTruthy();
    }
    const keys = chipManufacturers.map((m) => `${m.format}:${m.prefix}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('numbers that name no single manufacturer', () => {
  it.each([
    ['999000000000001', true, false],
    ['900164000123456', false, true],
    ['900123000123456', false, true],
    ['985141000123456', false, false],
    ['840999000000001', false, false],
    ['999000000', false, false],
    ['9990000000', false, false],
    ['9000000000', false, false],
  ])('%s: test chip %s, shared 900 code %s', (chipId, test, shared) => {
    expect(isTestChip(chipId)).toBe(test);
    expect(isSharedCodeChip(chipId)).toBe(shared);
  });

  it('reads the open lookup path as the registry stores the number', () => {
    expect(openLookupParams.parse({ chip: 'avid*123*456*789' })).toEqual({ chip: '123456789' });
    expect(openLookupParams.safeParse({ chip: '12345678' }).error?.issues[0]?.message).toBe(messages.lookupLength);
  });
});
