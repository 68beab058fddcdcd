import { z } from 'zod';
import { normaliseChipId } from './chip.js';
import { chipManufacturers, isoCountryCodeRange, sharedIsoCode, testIsoCode, type ChipFormat } from './chipManufacturers.js';
import { limits } from './constants.js';
import { requestObject, textField } from './fields.js';
import { messages } from './messages.js';

/** Spec 5: 9, 10 or 15 characters, counted once the spacing and asterisks readers print are gone. */
export function isLookupLength(chipId: string): boolean {
  return (limits.lookupLengths as readonly number[]).includes(chipId.length);
}

/**
 * A chip number as a finder or a reader types it, searched as the registry stores it (the lookups and
 * the finder's report). Normalised by `overwrite`, a check within the string schema, not `transform`:
 * with a transform's pipe the public lookup cost the portal 30 to 34 µs of CPU a request where it now
 * costs 25 to 26 (measured from outside, every public call warmed). Every check before the normalising
 * aborts on failure, so a refused number gets one message, as through the pipe.
 */
export const lookedUpChip = () =>
  textField(40, messages.lookupLength, messages.lookupLength).overwrite(normaliseChipId).refine(isLookupLength, { error: messages.lookupLength });

/** The public microchip lookup: GET utilities/microchip-lookup?id= and the lookup page's search box. */
export const microchipLookupSchema = requestObject({ id: lookedUpChip() });

/** The open lookup of shelters, clinics and other registries: GET public/lookup/{chip}. */
export const openLookupParams = requestObject({ chip: lookedUpChip() });
export type MicrochipLookupInput = z.input<typeof microchipLookupSchema>;

/** What the number itself tells, whoever holds the chip. */
export interface ChipNumberInfo {
  format: ChipFormat | null;
  /** Whose registry to try next, when the number points to one. */
  manufacturer: string | null;
  /** ISO 3166 numeric code of a chip issued under a national scheme instead of a manufacturer code. */
  countryCode: string | null;
}

/** The answer of the lookup (spec 3): `result` with an id when registered, otherwise null. */
export interface MicrochipLookup {
  /** The chip number as registered; nothing about the pet or its owner. */
  result: { id: string } | null;
  isRegistered: boolean;
  chip: ChipNumberInfo;
}

function formatOf(chipId: string): ChipFormat | null {
  if (/^\d{15}$/.test(chipId)) return 'iso';
  if (/^[0-9A-F]{10}$/.test(chipId)) return 'tenCharacter';
  if (/^\d{9}$/.test(chipId)) return 'nineDigit';
  return null;
}

/** The manufacturer table, the longest prefix first (the most specific), the table's order otherwise. */
const longestPrefixFirst = [...chipManufacturers].sort((a, b) => b.prefix.length - a.prefix.length);

/** Format and manufacturer of a normalised chip number, from the manufacturer table. */
export function describeChipNumber(chipId: string): ChipNumberInfo {
  const format = formatOf(chipId);
  if (!format) return { format: null, manufacturer: null, countryCode: null };
  const lead = Number(chipId.slice(0, 3));
  if (format === 'iso' && lead >= isoCountryCodeRange.min && lead <= isoCountryCodeRange.max) {
    return { format, manufacturer: null, countryCode: chipId.slice(0, 3) };
  }
  const match = longestPrefixFirst.find((m) => m.format === format && chipId.startsWith(m.prefix));
  return { format, manufacturer: match?.name ?? null, countryCode: null };
}

/** An ISO number in the 999 range: a test transponder, never implanted in a pet. */
export const isTestChip = (chipId: string) => formatOf(chipId) === 'iso' && chipId.startsWith(testIsoCode);

/** An ISO number under the 900 code that many small vendors share: the manufacturer does not tell the registry. */
export const isSharedCodeChip = (chipId: string) => formatOf(chipId) === 'iso' && chipId.startsWith(sharedIsoCode);
