import { addSiteToPetsSchema, messages, removeSiteFromPetSchema, type SitePetLink } from '@petreg/contract';
import { and, asc, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import type { z } from 'zod';
import { recordAudit } from '../../db/audit.js';
import type { Database, Transaction } from '../../db/client.js';
import { pets, sitePets, sites } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import { isAdministrator, type Session } from '../../plugins/auth.js';
import { findOwnedPet } from '../pets/ownership.js';
import { liveLink } from './vets.js';

/** The payloads of POST site/add-site-to-pets and DELETE site/RemoveFromPet, as validated. */
export type LinkRequest = z.output<typeof addSiteToPetsSchema>;
export type UnlinkRequest = z.output<typeof removeSiteFromPetSchema>;

const linkColumns = { id: sitePets.id, siteId: sitePets.siteId, petId: sitePets.petId };

/** Which pets a vet is linked to: owners link the vets of their own active pets, and remove them. */
export function createPetLinks(deps: { db: Database }) {
  const { db } = deps;

  /** A site the caller may link: active, and not another owner's own entry. */
  async function linkableSite(tx: Transaction, session: Session, siteId: number) {
    const mayLink = isAdministrator(session) ? undefined : or(ne(sites.source, 'owner'), eq(sites.createdBy, session.userId));
    const [site] = await tx
      .select({ id: sites.id })
      .from(sites)
      .where(and(eq(sites.id, siteId), eq(sites.isActive, true), mayLink));
    if (!site) throw notFound(messages.notFound);
    return site;
  }

  return {
    /** GET site/sites-for-user-pets/{siteId}: the caller's pets the site is linked to. */
    async linksForSite(session: Session, siteId: number): Promise<SitePetLink[]> {
      const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.id, siteId));
      if (!site) throw notFound(messages.notFound);
      return db
        .select(linkColumns)
        .from(sitePets)
        .innerJoin(pets, eq(pets.id, sitePets.petId))
        .where(and(eq(sitePets.siteId, siteId), liveLink, eq(pets.userId, session.userId), isNull(pets.deletedAt)))
        .orderBy(asc(sitePets.id));
    },

    /**
     * POST site/add-site-to-pets: links the site to every pet named, or to none when one of them is
     * not the caller's or not active. A link that exists already stays as it is.
     */
    async addToPets(session: Session, input: LinkRequest): Promise<SitePetLink[]> {
      const petIds = [...new Set(input.petIds)];
      return db.transaction(async (tx) => {
        const site = await linkableSite(tx, session, input.siteId);
        const owned = [];
        for (const petId of petIds) {
          const pet = await findOwnedPet(tx, session, petId);
          if (!pet.isActive) throw badRequest(messages.petNotActive);
          owned.push(pet);
        }
        const added = await tx
          .insert(sitePets)
          .values(petIds.map((petId) => ({ siteId: site.id, petId })))
          .onConflictDoNothing()
          .returning(linkColumns);
        for (const link of added) {
          const pet = owned.find((p) => p.id === link.petId)!;
          if (pet.userId !== session.userId) {
            await recordAudit(tx, { actorUserId: session.userId, action: 'create', entity: 'site_pet', entityId: link.id, after: link });
          }
        }
        const links = await tx
          .select(linkColumns)
          .from(sitePets)
          .where(and(eq(sitePets.siteId, site.id), inArray(sitePets.petId, petIds), liveLink));
        return petIds.map((petId) => links.find((link) => link.petId === petId)!);
      });
    },

    /** DELETE site/RemoveFromPet: ends the pet's live link to the site, keeping it as history. */
    async removeFromPet(session: Session, input: UnlinkRequest): Promise<void> {
      const pet = await findOwnedPet(db, session, input.petId);
      await db.transaction(async (tx) => {
        const [removed] = await tx
          .update(sitePets)
          .set({ deletedAt: new Date(), deletedBy: session.userId })
          .where(and(eq(sitePets.petId, pet.id), eq(sitePets.siteId, input.siteId), liveLink))
          .returning(linkColumns);
        if (!removed) throw notFound(messages.notFound);
        if (pet.userId !== session.userId) {
          await recordAudit(tx, { actorUserId: session.userId, action: 'delete', entity: 'site_pet', entityId: removed.id, before: removed });
        }
      });
    },
  };
}
