import { paths } from '@petreg/contract';

/**
 * Spec 2.5: outside the production host the lookup page moves to the production host's own; the
 * address to move to, or null where the page already is.
 */
export function productionLookupAddress(host: string | null | undefined): string | null {
  if (!host || host === window.location.host.toLowerCase()) return null;
  return `${window.location.protocol}//${host}${paths.microchipLookup}${window.location.search}`;
}
