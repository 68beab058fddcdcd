import { messages, normalisePhone, siteCreateSchema, type Site } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { PlaceFound, Places } from '../../adapters/places/index.js';
import type { Database } from '../../db/client.js';
import { sites } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { findZip } from '../../geography.js';
import type { Session } from '../../plugins/auth.js';
import { toSite } from './vets.js';

/** POST site/create's payload, as validated. */
export type NewSite = z.output<typeof siteCreateSchema>;

/**
 * Adding a vet (spec 2.5): a search result's place becomes a site once, and every later owner who
 * adds the same place reuses it; a vet the search does not know becomes the owner's own entry.
 */
export function createVetAdder(deps: { db: Database; places: Places }) {
  const { db, places } = deps;

  async function siteWithPlaceId(placeId: string) {
    const [row] = await db.select().from(sites).where(eq(sites.googlePlaceId, placeId));
    return row;
  }

  async function siteById(id: number) {
    const [row] = await db.select().from(sites).where(eq(sites.id, id));
    return row!;
  }

  /** A new site from a maps service's place; its coordinates, when the place gives none, its ZIP code's centre. */
  async function createFromPlace(session: Session, place: PlaceFound) {
    let { latitude, longitude } = place;
    if ((latitude === null || longitude === null) && place.zipCode) {
      const centre = await findZip(db, place.zipCode);
      latitude = centre?.latitude ?? null;
      longitude = centre?.longitude ?? null;
    }
    // Two owners adding the same place at once: the unique place id keeps one row, and both get it.
    await db
      .insert(sites)
      .values({
        name: place.name,
        googlePlaceId: place.googlePlaceId,
        phoneNumber: place.phoneNumber,
        address1: place.address1,
        city: place.city,
        state: place.state,
        zipCode: place.zipCode,
        url: place.url,
        imageUrl: place.imageUrl,
        rating: place.rating === null ? null : String(place.rating),
        reviewsCount: place.reviewsCount,
        latitude,
        longitude,
        placeDetail: { ...place.placeDetail },
        source: 'places',
        createdBy: session.userId,
      })
      .onConflictDoNothing({ target: sites.googlePlaceId });
    return (await siteWithPlaceId(place.googlePlaceId))!;
  }

  /**
   * POST site/ByGoogleId/{placeId}: the site with that place id, or the directory entry a directory
   * place id names, or a new site made of the place's details. No payload is trusted: the place's
   * own details make the site.
   */
  async function addByPlace(session: Session, placeId: string): Promise<Site> {
    const stored = await siteWithPlaceId(placeId);
    if (stored) {
      if (!stored.isActive) throw badRequest(messages.siteCreateFailed);
      return toSite(stored);
    }
    const place = await places.details(placeId);
    if (!place) throw badRequest(messages.siteCreateFailed);
    return toSite(place.siteId === undefined ? await createFromPlace(session, place) : await siteById(place.siteId));
  }

  return {
    addByPlace,

    /** POST site/create: a place id is added as above; otherwise the owner's own entry, which nobody else finds. */
    async create(session: Session, input: NewSite): Promise<Site> {
      if (input.googlePlaceId) return addByPlace(session, input.googlePlaceId);
      const [row] = await db
        .insert(sites)
        .values({
          name: input.name,
          phoneNumber: input.phoneNumber ? normalisePhone(input.phoneNumber) : null,
          address1: input.address1,
          url: input.url,
          imageUrl: input.imageUrl,
          source: 'owner',
          createdBy: session.userId,
        })
        .returning();
      return toSite(row!);
    },
  };
}
