import { describe, expect, it } from 'vitest';
import { isChipMessage, isCouponChip, isImplausibleIsoChip, isWellFormedChipId, normaliseChipId, withCoupon } from './chip.js';
import { messages } from './messages.js';

describe('microchip numbers', () => {
  it.each([
    ['AVID*123*456*789', '123456789'],
    ['avid*123*456*789', '123456789'],
    [' 985 141-000 123 456 ', '985141000123456'],
    ['0a12-345678', '0A12345678'],
    ['AVID12345678', 'AVID12345678'],
  ])('normalises %s to %s', (raw, expected) => {
    expect(normaliseChipId(raw)).toBe(expected);
  });

  it.each([
    ['123456789', true],
    ['0A12345678', true],
    ['0012345678', true],
    ['985141000123456', true],
    ['12345678', false],
    ['1234567890123', false],
    ['12345678A', false],
    ['0G12345678', false],
    ['98514100012345A', false],
  ])('%s is well formed: %s', (chip, expected) => {
    expect(isWellFormedChipId(chip)).toBe(expected);
  });

  it('flags 15-digit numbers whose last 12 digits exceed 274877906943', () => {
    expect(isImplausibleIsoChip('985274877906943')).toBe(false);
    expect(isImplausibleIsoChip('985274877906944')).toBe(true);
    expect(isImplausibleIsoChip('123456789')).toBe(false);
  });

  it('knows the coupon chips by their prefix', () => {
    expect(isCouponChip('900164000123456')).toBe(true);
    expect(isCouponChip('991010001234567')).toBe(true);
    expect(isCouponChip('900 164 000 123 456')).toBe(true);
    expect(isCouponChip('900165000123456')).toBe(false);
    expect(isCouponChip(null)).toBe(false);
  });

  it('knows the pet errors that belong on the chip field', () => {
    expect(isChipMessage(messages.chipTaken)).toBe(true);
    expect(isChipMessage(messages.chipTooShort)).toBe(true);
    expect(isChipMessage(messages.lookupLength)).toBe(true);
    expect(isChipMessage(messages.petSpeciesRequired)).toBe(false);
  });
});

describe('coupon price', () => {
  it('takes 75% off to the cent', () => {
    expect(withCoupon(1995)).toBe(499);
    expect(withCoupon(4995)).toBe(1249);
  });
});
