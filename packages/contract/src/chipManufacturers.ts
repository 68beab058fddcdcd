/**
 * What a microchip number says about itself: its numbering scheme and whose registry it points to.
 * Kept as data so a new manufacturer code is a one-line change; each row names where it comes from.
 */

/** The three numbering schemes a US scanner shows (spec 5: 9, 10 or 15 characters). */
export const chipFormats = {
  iso: 'ISO 11784/11785 FDX-B (15 digits)',
  tenCharacter: '10-character FDX-A (125 kHz)',
  nineDigit: '9-digit AVID',
} as const;
export type ChipFormat = keyof typeof chipFormats;

export const chipSources = {
  issue5: 'Issue 5 of this project: the product owner\'s list of manufacturer codes for the lookup page',
  peeva: 'https://peeva.co/microchip-guide (US manufacturer codes for ISO chips; FDX-A formats)',
  /** The authority for every ISO code; check a new or doubtful code against its register. */
  icarRegistrationAuthority:
    'https://wiki.icar.org/index.php?title=Section_10_%E2%80%93_Identification_Device_Certification (ICAR registers ISO 11784 manufacturer codes)',
  icarMisuse: 'https://www.icar.org/certifications/animal-identification-devices/misuse/ (999 is not an issued code; 900 is shared)',
  sharedCode900: 'https://microchipidsystems.com/faq-items/problem-with-900-microchips (900 is shared by hundreds of vendors)',
  saveThisLife: 'https://vancampandmorgan.com/?p=1675 (Save This Life chips start 900164)',
} as const;
export type ChipSource = keyof typeof chipSources;

/** ISO 11784 codes that name no single manufacturer (see the sources icarMisuse and sharedCode900). */
export const testIsoCode = '999';
export const sharedIsoCode = '900';

export interface ChipManufacturer {
  format: ChipFormat;
  /** Leading characters of the normalised number; the longest matching prefix wins. Empty matches any. */
  prefix: string;
  name: string;
  sources: readonly ChipSource[];
}

export const chipManufacturers: readonly ChipManufacturer[] = [
  { format: 'iso', prefix: '985', name: 'Destron Fearing / HomeAgain', sources: ['peeva', 'issue5'] },
  { format: 'iso', prefix: '982', name: 'Allflex / 24PetWatch', sources: ['peeva', 'issue5'] },
  { format: 'iso', prefix: '981', name: 'Datamars', sources: ['peeva', 'issue5'] },
  { format: 'iso', prefix: '98102', name: 'Datamars / PetLink (Found Animals)', sources: ['peeva', 'issue5'] },
  { format: 'iso', prefix: '98101', name: 'Datamars / Banfield', sources: ['peeva', 'issue5'] },
  { format: 'iso', prefix: '977', name: 'AVID', sources: ['peeva', 'issue5'] },
  { format: 'iso', prefix: '956', name: 'Trovan / AKC Reunite', sources: ['peeva', 'issue5'] },
  { format: 'iso', prefix: '968', name: 'AEG', sources: ['issue5'] },
  { format: 'iso', prefix: '941', name: 'Felixcan', sources: ['issue5'] },
  { format: 'iso', prefix: '9410000', name: 'Felixcan / PetKey', sources: ['issue5'] },
  { format: 'iso', prefix: '933', name: 'Buddy ID', sources: ['issue5'] },
  { format: 'iso', prefix: '900', name: 'Shared code of several small vendors', sources: ['sharedCode900', 'icarMisuse', 'issue5'] },
  { format: 'iso', prefix: '900164', name: 'Save This Life', sources: ['saveThisLife', 'issue5'] },
  { format: 'iso', prefix: '999', name: 'Test code, never issued to a pet chip', sources: ['icarMisuse', 'issue5'] },
  { format: 'tenCharacter', prefix: '', name: 'AVID or HomeAgain (FDX-A)', sources: ['peeva', 'issue5'] },
  { format: 'tenCharacter', prefix: '0A', name: '24PetWatch', sources: ['peeva', 'issue5'] },
  { format: 'tenCharacter', prefix: '00', name: 'Trovan / AKC Reunite', sources: ['peeva', 'issue5'] },
  { format: 'nineDigit', prefix: '', name: 'AVID', sources: ['peeva', 'issue5'] },
];

/**
 * ISO 11784 numbers whose first three digits are 001–899 carry an ISO 3166 numeric country code
 * (the chip was issued under a national scheme, often abroad) instead of a manufacturer code.
 */
export const isoCountryCodeRange = { min: 1, max: 899 } as const;
