import { isZipQuery, messages, vetSearch, type SiteSearchPage } from '@petreg/contract';
import type { PlacePhoto, Places } from '../../adapters/places/index.js';
import type { Database } from '../../db/client.js';
import { badRequest } from '../../errors.js';
import { findZip } from '../../geography.js';
import { createVetAdder } from './addVet.js';
import { createPetLinks } from './petLinks.js';
import { createVetReader } from './vets.js';

export type SiteService = ReturnType<typeof createSiteService>;

/** Vets for owners (spec 2.5, 7 Sites): search, add, link to pets, and read. */
export function createSiteService(deps: { db: Database; places: Places }) {
  return {
    ...createVetReader(deps),
    ...createVetAdder(deps),
    ...createPetLinks(deps),

    /**
     * GET site/search: a ZIP code finds the nearest vets around its centre (one the ZIP table does not
     * know is a mistyped ZIP, not a name); anything else, names and addresses.
     */
    async search(query: string, next: string | undefined): Promise<SiteSearchPage> {
      const zip = isZipQuery(query) ? await findZip(deps.db, query) : null;
      if (isZipQuery(query) && !zip) throw badRequest(messages.zipUnknown);
      const page = await deps.places.search({ query, near: zip, next });
      return { ...page, near: zip && { ...zip, radiusMiles: vetSearch.radiusMiles } };
    },

    photo: (ref: string): Promise<PlacePhoto | null> => deps.places.photo(ref),
  };
}
