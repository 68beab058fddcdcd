import { requestObject, textField } from './fields.js';
import { messages } from './messages.js';

/** A US ZIP code: five digits; ZIP+4 and other countries' codes are not ZIP codes of the table. */
export const zipCodeField = textField(5, messages.zipInvalid, messages.zipInvalid)
  .trim()
  .regex(/^\d{5}$/, { error: messages.zipInvalid });

/** A ZIP code a form may leave empty: empty text is null; a field not sent stays undefined. */
export const optionalZipCodeField = textField(5, messages.zipInvalid, messages.zipInvalid)
  .trim()
  .nullish()
  .transform((v) => (v === '' ? null : v))
  .pipe(zipCodeField.nullish());

/** A US ZIP code in the path: GET utilities/zip/{zip}. */
export const zipParams = requestObject({ zip: zipCodeField });

/** A US ZIP code with its place name and centre: GET utilities/zip/{zip}. */
export interface ZipPlace {
  zip: string;
  city: string;
  /** Two-letter USPS abbreviation. */
  state: string;
  latitude: number;
  longitude: number;
  /** The place as people write it: "Saint Louis, MO 63101". */
  place: string;
}

type PlaceParts = { [K in 'city' | 'state' | 'zip']?: string | null };

/** A place as people write it on an envelope: "Saint Louis, MO 63101"; a missing part is left out. */
export function formatPlace({ city, state, zip }: PlaceParts): string {
  return [city, [state, zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
}
