import { messages, type Site, type SiteKind, type SiteWithDetail } from '@petreg/contract';
import { and, asc, eq, exists, getTableColumns, isNull, min, ne, or, type SQL } from 'drizzle-orm';
import { placeDetailOfSite } from '../../adapters/places/directory.js';
import type { Database } from '../../db/client.js';
import { pets, sitePets, sites } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { isAdministrator, type Session } from '../../plugins/auth.js';
import { findOwnedPet } from '../pets/ownership.js';

export type SiteRow = typeof sites.$inferSelect;

/** A site as owners see it (dashboard tiles, the pet page's vet card, vet pages). */
export function toSite(row: SiteRow): Site {
  return {
    id: row.id,
    name: row.name,
    practiceType: row.practiceType as SiteKind,
    logo: row.logo,
    googlePlaceId: row.googlePlaceId,
    isActive: row.isActive,
    phoneNumber: row.phoneNumber,
    address1: row.address1,
    city: row.city,
    state: row.state,
    zipCode: row.zipCode,
    url: row.url,
    imageUrl: row.imageUrl,
    rating: row.rating === null ? null : Number(row.rating),
    reviewsCount: row.reviewsCount,
  };
}

/** The live links of a pet to a vet: a removed link stays as history only. */
export const liveLink = isNull(sitePets.deletedAt);

/** The vets owners see: the sites linked to their pets, and the vet pages. */
export function createVetReader(deps: { db: Database }) {
  const { db } = deps;

  /**
   * Sites with a live link to a pet that passes `petCondition`, each once, in the order they were
   * first linked. A site taken out of the directory (a sample switched off) stays with the owners
   * who linked it: only vet search and alerts leave it out.
   */
  async function linkedSites(petCondition: SQL): Promise<Site[]> {
    const rows = await db
      .select({ site: getTableColumns(sites), firstLink: min(sitePets.id) })
      .from(sitePets)
      .innerJoin(sites, eq(sites.id, sitePets.siteId))
      .innerJoin(pets, eq(pets.id, sitePets.petId))
      .where(and(liveLink, petCondition, isNull(pets.deletedAt)))
      .groupBy(sites.id)
      .orderBy(asc(min(sitePets.id)));
    return rows.map((row) => toSite(row.site));
  }

  return {
    /** GET site/for-user: the vets of the caller's own pets. */
    forUser(session: Session): Promise<Site[]> {
      return linkedSites(eq(pets.userId, session.userId));
    },

    /** GET site/sites-for-pet/{id}: the vets of one pet its owner (or an administrator) may see. */
    async forPet(session: Session, petId: number): Promise<Site[]> {
      const pet = await findOwnedPet(db, session, petId);
      return linkedSites(eq(pets.id, pet.id));
    },

    /**
     * GET site/{id}: a vet's page. Anyone signed in sees the directory's active sites; an owner's own
     * entry, and a site taken out of the directory, only its creator and the owners whose pets it is linked to.
     */
    async get(session: Session, id: number): Promise<SiteWithDetail> {
      const linkedToCaller = exists(
        db
          .select({ id: sitePets.id })
          .from(sitePets)
          .innerJoin(pets, eq(pets.id, sitePets.petId))
          .where(and(eq(sitePets.siteId, sites.id), liveLink, eq(pets.userId, session.userId), isNull(pets.deletedAt))),
      );
      const visible = isAdministrator(session)
        ? undefined
        : or(and(eq(sites.isActive, true), ne(sites.source, 'owner')), eq(sites.createdBy, session.userId), linkedToCaller);
      const [row] = await db
        .select()
        .from(sites)
        .where(and(eq(sites.id, id), visible));
      if (!row) throw notFound(messages.notFound);
      return { ...toSite(row), placeDetail: await placeDetailOfSite(db, row) };
    },
  };
}
