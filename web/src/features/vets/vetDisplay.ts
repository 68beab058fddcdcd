import { formatPlace, normalisePhone, type PlaceDetail, type Site } from '@petreg/contract';

/** The street line and the "Saint Louis, MO 63101" line, leaving out what the directory lacks. */
export function addressLines(address1: string | null, place: { city: string | null; state: string | null; zip: string | null }): string[] {
  return [address1, formatPlace(place)].filter((line): line is string => Boolean(line));
}

export const siteAddressLines = (site: Site) => addressLines(site.address1, { city: site.city, state: site.state, zip: site.zipCode });

/** Up to two letters standing in for a vet without a picture: "Sample Animal Hospital" is SA. */
export function initials(name: string): string {
  const words = name.split(/\s+/).filter((word) => /^[\p{L}\p{N}]/u.test(word));
  return words
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');
}

/** The vet's own logo, else its photo; null shows the initials. */
export const vetPicture = (site: Pick<Site, 'logo' | 'imageUrl'>) => site.logo ?? site.imageUrl;

/** Ratings are shown to 0.1 (spec 9). */
export const formatRating = (rating: number) => rating.toFixed(1);

export const telHref = (phone: string) => `tel:${normalisePhone(phone) ?? phone}`;

/**
 * A map that opens without a maps key in the browser: OpenStreetMap with a marker on the vet's
 * coordinates, or a search for its address when the directory has none.
 */
export function mapUrl(detail: Pick<PlaceDetail, 'latitude' | 'longitude'>, address: string[]): string | null {
  const { latitude, longitude } = detail;
  if (latitude !== null && longitude !== null) {
    return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;
  }
  if (address.length === 0) return null;
  return `https://www.openstreetmap.org/search?${new URLSearchParams({ query: address.join(', ') })}`;
}
