import { chipFormats, isSharedCodeChip, isTestChip, reachOwnerPath, type ChipFormat } from '@petreg/contract';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { PublicService } from './service.js';

/**
 * The open lookup's answer, version 1. Universal lookups (AAHA's) and shelters' systems read it, so
 * it changes only by adding fields; anything else is a new version. Nothing in it names the owner.
 */
export const openLookupVersion = 1;

const formats = Object.keys(chipFormats) as [ChipFormat, ...ChipFormat[]];

export const openLookupResult = z.object({
  version: z.literal(openLookupVersion).describe('Version of this answer\'s shape'),
  chip: z.object({
    number: z.string().describe('The chip number as the registry stores it: upper-case, without spaces, dashes or asterisks'),
    format: z.enum(formats).nullable().describe('iso: ISO 11784/11785 (15 digits); tenCharacter: 10-character FDX-A; nineDigit: 9-digit AVID'),
    formatName: z.string().nullable(),
    manufacturer: z.string().nullable().describe('Whose chip the number says it is, from its ISO manufacturer code or its format'),
    countryCode: z.string().nullable().describe('ISO 3166 numeric code of a chip issued under a national scheme (ISO numbers starting 001-899)'),
    testChip: z.boolean().describe('An ISO number in the 999 test range: a test chip, never implanted'),
    sharedCode: z.boolean().describe('An ISO number under the 900 code many small vendors share: the number names no manufacturer'),
  }),
  registered: z.boolean().describe('Registered here, to an active pet, with a registration that has not run out'),
  lastUpdated: z.iso.date().nullable().describe('UTC date the registration last changed (chip, pet or owner contact details); null when not registered'),
  registry: z.object({
    name: z.string(),
    phone: z.string().describe('Answered 24/7: reaches the owner'),
    phoneHref: z.string().describe('The same line as a tel: link'),
  }),
  reportUrl: z.url().nullable().describe('Opens the form that tells the owner the pet was found; null when not registered'),
});
export type OpenLookupResult = z.infer<typeof openLookupResult>;

export type OpenLookup = ReturnType<typeof createOpenLookup>;

/** What the registry tells anyone of a chip number: served from the public lookup's remembered answers. */
export function createOpenLookup(deps: { publicPages: PublicService; registry: Config['registry']; publicUrl: string }) {
  return {
    async lookup(chip: string): Promise<OpenLookupResult> {
      const { lookup, lastUpdated } = await deps.publicPages.registration(chip);
      const { format, manufacturer, countryCode } = lookup.chip;
      return {
        version: openLookupVersion,
        chip: {
          number: chip,
          format,
          formatName: format && chipFormats[format],
          manufacturer,
          countryCode,
          testChip: isTestChip(chip),
          sharedCode: isSharedCodeChip(chip),
        },
        registered: lookup.isRegistered,
        lastUpdated: lastUpdated && lastUpdated.toISOString().slice(0, 10),
        registry: deps.registry,
        // The "Reach the owner" form, which relays the finder's words without showing who the owner is.
        reportUrl: lookup.isRegistered ? `${deps.publicUrl}${reachOwnerPath({ chip })}` : null,
      };
    },
  };
}
