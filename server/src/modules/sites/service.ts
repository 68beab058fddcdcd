import type { SiteSearchResult } from '@petreg/contract';
import type { PlacePhoto, Places } from '../../adapters/places/index.js';
import type { Database } from '../../db/client.js';
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
    search: (query: string): Promise<SiteSearchResult[]> => deps.places.search(query),
    photo: (ref: string): Promise<PlacePhoto | null> => deps.places.photo(ref),
  };
}
