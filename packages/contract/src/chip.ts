/**
 * Microchip number rules. Readers and paperwork print the same chip many ways ("AVID*123*456*789",
 * "985 141 000 123 456", "0a12-345678"); the registry compares and stores one form.
 */

/** Upper-case, without spaces, dashes or asterisks, and without the "AVID" AVID readers print first. */
export function normaliseChipId(raw: string): string {
  return raw
    .trim()
    .toUpperCase()
    .replace(/[\s*-]/g, '')
    .replace(/^AVID(?=\d{9}$)/, '');
}

/** 9-character AVID chips are digits; 10-character chips may hold hex letters; ISO chips are 15 digits. */
export function isWellFormedChipId(chipId: string): boolean {
  if (chipId.length === 9 || chipId.length === 15) return /^\d+$/.test(chipId);
  if (chipId.length === 10) return /^[0-9A-F]+$/.test(chipId);
  return false;
}

/** Largest national id an ISO 11784 code can carry: 38 bits. */
const ISO_MAX_NATIONAL_ID = 274_877_906_943n;

/** A 15-digit number whose last 12 digits exceed 38 bits cannot be a real ISO chip: worth a second look. */
export function isImplausibleIsoChip(chipId: string): boolean {
  return chipId.length === 15 && /^\d+$/.test(chipId) && BigInt(chipId.slice(3)) > ISO_MAX_NATIONAL_ID;
}

/** Chips sold with the Save This Life partnership get the coupon of spec section 1. */
export const couponChipPrefixes = ['900164', '99101'] as const;
export const couponCode = 'STL2025';
export const couponPercentOff = 75;

/** The price after the coupon, to the cent, as checkout charges it. */
export function withCoupon(cents: number): number {
  return Math.round((cents * (100 - couponPercentOff)) / 100);
}

export function isCouponChip(chipId: string | null | undefined): boolean {
  const normalised = normaliseChipId(chipId ?? '');
  return couponChipPrefixes.some((prefix) => normalised.startsWith(prefix));
}

/** Spec 8: a pet error that mentions the chip number or microchip id belongs on the chip field. */
export function isChipMessage(message: string): boolean {
  return /chip number|microchip id/i.test(message);
}
