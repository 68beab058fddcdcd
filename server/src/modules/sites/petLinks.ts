import { addSiteToPetsSchema, maxVetsPerPet, messages, removeSiteFromPetSchema, type SitePetLink } from '@petreg/contract';
import { and, asc, count, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import type { z } from 'zod';
import { searchable } from '../../adapters/places/directory.js';
import { recordAudit } from '../../db/audit.js';
import type { Database, Transaction } from '../../db/client.js';
import { pets, sitePets, sites } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { findOwnedPet } from '../pets/ownership.js';
import { liveLink } from './vets.js';

/** The payloads of POST site/add-site-to-pets and DELETE site/RemoveFromPet, as validated. */
export type LinkRequest = z.output<typeof addSiteToPetsSchema>;
export type UnlinkRequest = z.output<typeof removeSiteFromPetSchema>;

const linkColumns = { id: sitePets.id, siteId: sitePets.siteId, petId: sitePets.petId };

/** Which pets a vet is linked to: owners link the vets of their own active pets, and remove them. */
export function createPetLinks(deps: { db: Database }) {
  const { db } = deps;

  /**
   * A site an owner can find: one vet search shows, or an owner's own entry (whose creator
   * addToPets checks). Any other site answers 404, as if unknown.
   */
  async function linkableSite(tx: Transaction, siteId: number) {
    const ownEntry = and(eq(sites.source, 'owner'), eq(sites.isActive, true));
    const [site] = await tx
      .select({ id: sites.id, source: sites.source, createdBy: sites.createdBy })
      .from(sites)
      .where(and(eq(sites.id, siteId), or(searchable, ownEntry)));
    if (!site) throw notFound(messages.notFound);
    return site;
  }

  /** Refuses a link that would give a pet more than maxVetsPerPet vets; the pets are locked, so two calls at once cannot both pass. */
  async function checkRoom(tx: Transaction, siteId: number, petIds: number[]) {
    await tx.select({ id: pets.id }).from(pets).where(inArray(pets.id, petIds)).orderBy(asc(pets.id)).for('update');
    const linked = await tx
      .select({ petId: sitePets.petId, vets: count() })
      .from(sitePets)
      .where(and(inArray(sitePets.petId, petIds), liveLink, ne(sitePets.siteId, siteId)))
      .groupBy(sitePets.petId);
    if (linked.some((pet) => pet.vets >= maxVetsPerPet)) throw badRequest(messages.petVetsFull);
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
     * not the caller's, not active, or has its most vets already. A link that exists already stays as it is.
     */
    async addToPets(session: Session, input: LinkRequest): Promise<SitePetLink[]> {
      const petIds = [...new Set(input.petIds)];
      return db.transaction(async (tx) => {
        const site = await linkableSite(tx, input.siteId);
        const owned = [];
        for (const petId of petIds) {
          const pet = await findOwnedPet(tx, session, petId);
          if (!pet.isActive) throw badRequest(messages.petNotActive);
          owned.push(pet);
        }
        // An owner's own entry is for that owner's pets only; nobody else finds it.
        if (site.source === 'owner' && owned.some((pet) => pet.userId !== site.createdBy)) throw notFound(messages.notFound);
        await checkRoom(tx, site.id, petIds);
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
