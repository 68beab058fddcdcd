import {
  isImplausibleIsoChip,
  messages,
  type Chip,
  type CreatedPet,
  type NamedItem,
  type Pet,
  type PetProfile,
  type PetRegistration,
} from '@petreg/contract';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { FileStorage, ServedFile } from '../../adapters/storage/index.js';
import { recordAudit } from '../../db/audit.js';
import type { Database, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { breeds, chips, petBreeds, pets } from '../../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { findZip } from '../../geography.js';
import { isAdministrator, mayActFor, type Session } from '../../plugins/auth.js';
import { cancelOpenCheckouts, currentChip } from '../payments/shared.js';
import { createShortLink } from '../public/shortLinks.js';
import { findOwnedPet, ownedOrRefused } from './ownership.js';
import { createPetReferences } from './references.js';
import { discardImage, imageFolders, imageUrl, isStoredImageName, keptImage, resolveImageField, squareCopy } from '../../adapters/storage/images.js';
import { RecentCache } from '../../recent.js';

type PetRow = typeof pets.$inferSelect;
type ChipRow = typeof chips.$inferSelect;
/** A live chip as the one-statement read of pets gives it: its expiry as JSON text. */
type StoredChip = Omit<Chip, 'expirationDate'> & { expirationDate: string | null };

const isoTimestamp = (value: Date | null) => (value ? value.toISOString() : null);

export type PetService = ReturnType<typeof createPetService>;

/** Square copies of photos (about 20 KB each): a photo's name never changes, so a copy never goes stale. */
const SQUARE_COPIES_MAX = 2000;

export function createPetService(deps: { db: Database; storage: FileStorage }) {
  const { db, storage } = deps;
  const squareCopies = new RecentCache<string, Buffer>(Infinity, SQUARE_COPIES_MAX);
  const references = createPetReferences(db);

  /** Pets with their breeds, live chips and short link, in one statement; the reads below say which. */
  const petsWithDetails = (source: Database | Transaction = db) =>
    source
      .select({
        row: pets,
        // Written out, not built from the columns: drizzle leaves a one-table select's columns unqualified,
        // and "id" inside a subquery would be the subquery's own table's.
        breeds: sql<{ id: number; name: string }[]>`(select coalesce(json_agg(json_build_object('id', b.id, 'name', b.name) order by b.name), '[]'::json)
          from pet_breeds pb join breeds b on b.id = pb.breed_id where pb.pet_id = "pets"."id")`,
        chips: sql<StoredChip[]>`(select coalesce(json_agg(json_build_object('chipId', c.chip_id, 'chipTypeId', c.chip_type_id, 'isActive', c.is_active,
          'oneTime', c.one_time, 'expirationDate', c.expiration_date) order by c.id), '[]'::json)
          from chips c where c.pet_id = "pets"."id" and c.removed_at is null)`,
        shortId: sql<string | null>`(select l.code from short_links l where l.pet_id = "pets"."id")`,
      })
      .from(pets)
      .$dynamic()
      .orderBy(asc(pets.id));
  // A pet's save and the owner's list are the calls owners make most.
  const petById = petsWithDetails().where(eq(pets.id, sql.placeholder('id'))).prepare('pets_by_id');
  const livePetById = petsWithDetails().where(and(eq(pets.id, sql.placeholder('id')), isNull(pets.deletedAt))).prepare('pets_live_by_id');
  const livePetsOfOwner = petsWithDetails().where(and(eq(pets.userId, sql.placeholder('userId')), isNull(pets.deletedAt))).prepare('pets_live_of_owner');
  type PetWithDetails = Awaited<ReturnType<typeof petById.execute>>[number];

  /** The pets a statement above read, as the API gives them. */
  async function readPets(reading: Promise<PetWithDetails[]> | PetWithDetails[]): Promise<{ row: PetRow; pet: Pet }[]> {
    const rows = await reading;
    if (rows.length === 0) return [];
    const speciesName = await references.speciesNames(rows.flatMap(({ row }) => (row.speciesId ? [row.speciesId] : [])));
    const now = Date.now();
    return rows.map(({ row, breeds: petBreedRows, chips: chipRows, shortId }) => {
      // Dates come as JSON text; the API's are ISO instants.
      const petChips: Chip[] = chipRows.map((c) => ({ ...c, expirationDate: c.expirationDate === null ? null : new Date(c.expirationDate).toISOString() }));
      const pet: Pet = {
        id: row.id,
        publicId: row.publicId,
        shortId,
        name: row.name,
        image: row.image,
        imageUrl: imageUrl('pets', row.image),
        species: row.speciesId ? (speciesName.get(row.speciesId) ?? null) : null,
        speciesId: row.speciesId,
        petBreedList: petBreedRows.map((b) => b.id),
        breeds: petBreedRows,
        sex: row.sex as Pet['sex'],
        dob: row.dob,
        lastRabiesVaccine: row.lastRabiesVaccine,
        spayedNeutered: row.spayedNeutered,
        shareContactInfo: row.shareContactInfo,
        approximateWeight: row.approximateWeight === null ? null : Number(row.approximateWeight),
        colour: row.colour,
        notes: row.notes,
        isActive: row.isActive,
        subscriptionExpired: petChips.some((c) => !c.oneTime && c.expirationDate !== null && Date.parse(c.expirationDate) < now),
        status: row.status,
        missingDate: isoTimestamp(row.missingDate),
        zipCode: row.zipCode,
        incidentDescription: row.incidentDescription,
        foundDate: isoTimestamp(row.foundDate),
        verificationQuestion: row.verificationQuestion,
        chips: petChips,
        microchip1: petChips[0]?.chipId ?? null,
        isChipActive: petChips[0]?.isActive ?? false,
        planId: row.planId,
      };
      return { row, pet };
    });
  }

  /** The live pet with its details, when the session may act on it; 404 or 403 otherwise. */
  async function readOwnedPet(session: Session, id: number) {
    const [found] = await readPets(livePetById.execute({ id }));
    return ownedOrRefused(session, found && { ...found, userId: found.row.userId });
  }

  /** Refuses a species, breed or brand that does not exist, or breeds of another species. */
  async function checkReferences(input: PetRegistration | PetProfile) {
    if (!(await references.speciesExists(input.speciesId))) throw badRequest(messages.petSpeciesRequired);
    if (!(await references.breedsOf(input.speciesId, input.breeds.map((b) => b.id)))) throw badRequest(messages.breedsOfSpecies);
    if (input.chipTypeId && !(await references.brandExists(input.chipTypeId))) throw badRequest(messages.chipTypeRequired);
  }

  /** A last-seen ZIP must be one the ZIP table knows: the alert's radius is measured from its centre. */
  async function checkZip(zipCode: string | null | undefined) {
    if (zipCode && !(await findZip(db, zipCode))) throw badRequest(messages.zipUnknown);
  }

  async function refuseChipOfAnotherPet(chipId: string, petId: number | null) {
    if (!chipId) return;
    const [holder] = await db
      .select({ petId: chips.petId })
      .from(chips)
      .where(and(eq(chips.chipId, chipId), isNull(chips.removedAt)));
    if (holder && holder.petId !== petId) throw conflict(messages.chipTaken);
  }

  /**
   * What only some forms send: the missing pet's details the lost alert form saves first, and the
   * owner's question for finders (the edit form); those not sent stay as they are.
   */
  function optionalPetValues(input: PetProfile) {
    const { missingDate, zipCode, incidentDescription, verificationQuestion } = input;
    return {
      ...(missingDate !== undefined && { missingDate: missingDate === null ? null : new Date(missingDate) }),
      ...(zipCode !== undefined && { zipCode }),
      ...(incidentDescription !== undefined && { incidentDescription }),
      ...(verificationQuestion !== undefined && { verificationQuestion }),
    };
  }

  function petValues(input: PetRegistration | PetProfile) {
    return {
      name: input.name,
      speciesId: input.speciesId,
      sex: input.sex,
      dob: input.dob,
      lastRabiesVaccine: input.lastRabiesVaccine,
      spayedNeutered: input.spayedNeutered,
      shareContactInfo: input.shareContactInfo,
      approximateWeight: input.approximateWeight === null ? null : String(input.approximateWeight),
      colour: input.colour,
      notes: input.notes,
    };
  }

  /**
   * Gives the pet the breeds of `list`; nothing is written when they are the ones it has (`current`,
   * read under its lock). Answers whether it wrote.
   */
  async function replaceBreeds(tx: Transaction, petId: number, list: { id: number }[], current: number[] = []): Promise<boolean> {
    const unique = [...new Set(list.map((b) => b.id))];
    if (unique.length === current.length && unique.every((id) => current.includes(id))) return false;
    await tx.delete(petBreeds).where(eq(petBreeds.petId, petId));
    if (unique.length) await tx.insert(petBreeds).values(unique.map((breedId) => ({ petId, breedId })));
    return true;
  }

  /**
   * Puts the given chip number on the pet. A changed number retires the old chip row (kept for
   * history) and the new one carries the registration over: the plan belongs to the pet. Only an
   * administrator moves a paid registration, so one payment (or a coupon chip's discount) cannot
   * be passed from chip to chip.
   */
  async function setChip(tx: Transaction, session: Session, petId: number, chipId: string, chipTypeId: number | null) {
    const current = await currentChip(tx, petId);
    if (current?.chipId === chipId) {
      if (current.chipTypeId !== chipTypeId) await tx.update(chips).set({ chipTypeId }).where(eq(chips.id, current.id));
      return;
    }
    if (current?.isActive && !isAdministrator(session)) throw conflict(messages.registeredChipLocked);
    // A checkout started for the old chip (its price, its coupon) must not cover the new one.
    await cancelOpenCheckouts(tx, petId);
    if (current) await tx.update(chips).set({ removedAt: new Date() }).where(eq(chips.id, current.id));
    if (chipId) await tx.insert(chips).values({ petId, chipId, chipTypeId, ...carriedRegistration(current) });
  }

  return {
    async listForOwner(userId: number): Promise<Pet[]> {
      const found = await readPets(livePetsOfOwner.execute({ userId }));
      return found.map(({ pet }) => pet);
    },

    async get(session: Session, id: number): Promise<Pet> {
      return (await readOwnedPet(session, id)).pet;
    },

    /** A pet whether or not it was removed: administrators still read a removed pet's record (a chip search leads there). */
    async getIncludingRemoved(id: number): Promise<Pet> {
      const [found] = await readPets(petById.execute({ id }));
      if (!found) throw notFound(messages.notFound);
      return found.pet;
    },

    async create(session: Session, input: PetRegistration): Promise<CreatedPet> {
      await checkReferences(input);
      await refuseChipOfAnotherPet(input.chipId, null);
      const image = await resolveImageField(storage, imageFolders.pets, input.image, null);
      try {
        const petId = await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(pets)
            .values({ ...petValues(input), userId: session.userId, image })
            .returning({ id: pets.id });
          await replaceBreeds(tx, row!.id, input.breeds);
          await setChip(tx, session, row!.id, input.chipId, input.chipTypeId);
          await createShortLink(tx, row!.id);
          return row!.id;
        });
        const [created] = await readPets(petById.execute({ id: petId }));
        return { pet: created!.pet, enabled: true, plan: null, warnings: chipWarnings(input.chipId) };
      } catch (error) {
        // Another registration took the chip between the check and the insert.
        if (isUniqueViolation(error)) throw conflict(messages.chipTaken);
        throw error;
      }
    },

    /**
     * Saves the pet's form. `alsoWithin` (the administrator's record page) writes more in the same
     * transaction, the enabled switches, and answers what it changed; such a save is always audited.
     */
    async update(
      session: Session,
      input: PetProfile,
      alsoWithin?: (tx: Transaction, petId: number) => Promise<Record<string, unknown>>,
    ): Promise<Pet> {
      const { row: before, pet: shown } = await readOwnedPet(session, input.id);
      await checkReferences(input);
      await checkZip(input.zipCode);
      // A number the pet already carries is its own; only a new one may be another pet's.
      if (!shown.chips.some((c) => c.chipId === input.chipId)) await refuseChipOfAnotherPet(input.chipId, before.id);
      const sent = await resolveImageField(storage, imageFolders.pets, input.image, before.image);
      let saved: { image: string | null; replaced: string | null; answer: PetWithDetails | null };
      try {
        saved = await db.transaction(async (tx) => {
          // Locked first, as every change of a pet's cover locks it: the photo this change replaces is
          // the one the row names now, which another edit may have changed since it was read. Then read
          // with its breeds, chips and short link, which most saves leave as they are: in a statement
          // of its own, which sees what a change that held the lock (a payment, another save) wrote to
          // the other tables; the locking statement sees only the pet's own row anew.
          await tx.select({ id: pets.id }).from(pets).where(eq(pets.id, before.id)).for('update');
          const [locked] = await petsWithDetails(tx).where(eq(pets.id, before.id)).prepare('pets_for_save').execute();
          // Transferred or removed since it was read: this edit is no longer the caller's to make.
          if (locked!.row.deletedAt) throw notFound(messages.notFound);
          if (!mayActFor(session, locked!.row.userId)) throw forbidden(messages.forbidden);
          const image = keptImage(sent, before.image, locked!.row.image);
          const [row] = await tx
            .update(pets)
            .set({ ...petValues(input), ...optionalPetValues(input), image, updatedAt: new Date() })
            .where(eq(pets.id, before.id))
            .returning();
          const breedsWritten = await replaceBreeds(tx, before.id, input.breeds, locked!.breeds.map((b) => b.id));
          // The chip as it is (and so no checkout to cancel: completing one checks its chip is still the pet's).
          const [chip] = locked!.chips;
          const chipKept = (chip?.chipId ?? '') === input.chipId && (chip?.chipTypeId ?? null) === input.chipTypeId;
          if (!chipKept) await setChip(tx, session, before.id, input.chipId, input.chipTypeId);
          const more = alsoWithin ? await alsoWithin(tx, before.id) : {};
          if (before.userId !== session.userId || alsoWithin) {
            // The audit keeps what changed, not the photo a data URL may carry.
            const { image: _photo, ...after } = input;
            await recordAudit(tx, { actorUserId: session.userId, action: 'update', entity: 'pet', entityId: before.id, before, after: { ...after, ...more } });
          }
          // The answer is the row as written with the details read under the lock, unless this save changed those too.
          const answer = breedsWritten || !chipKept || alsoWithin ? null : { ...locked!, row: row! };
          return { image, replaced: locked!.row.image, answer };
        });
      } catch (error) {
        await discardImage(storage, imageFolders.pets, sent, before.image);
        if (isUniqueViolation(error)) throw conflict(messages.chipTaken);
        throw error;
      }
      await discardImage(storage, imageFolders.pets, saved.replaced, saved.image);
      if (!saved.answer) return this.get(session, before.id);
      const [answered] = await readPets([saved.answer]);
      return answered!.pet;
    },

    /** Breeds of the pet's species, for its edit form. */
    async breedsForPet(session: Session, petId: number): Promise<NamedItem[]> {
      const pet = await findOwnedPet(db, session, petId);
      if (!pet.speciesId) return [];
      return db.select({ id: breeds.id, name: breeds.name }).from(breeds).where(eq(breeds.speciesId, pet.speciesId)).orderBy(asc(breeds.id));
    },

    /** A stored photo, or (`size`) its square copy for the public profile, made here when first asked for, kept a while and served by the portal. */
    async image(name: string, size?: number): Promise<ServedFile | null> {
      if (!isStoredImageName(name)) return null;
      if (!size) return storage.open(imageFolders.pets, name);
      const key = `${name}:${size}`;
      const kept = squareCopies.get(key);
      if (kept) return { body: kept };
      const photo = await storage.get(imageFolders.pets, name);
      if (!photo) return null;
      const copy = await squareCopy(photo, size);
      squareCopies.set(key, copy);
      return { body: copy };
    },
  };
}

function carriedRegistration(previous: ChipRow | undefined) {
  return previous
    ? { isActive: previous.isActive, oneTime: previous.oneTime, expirationDate: previous.expirationDate }
    : { isActive: false, oneTime: false, expirationDate: null };
}

function chipWarnings(chipId: string): string[] {
  return isImplausibleIsoChip(chipId) ? [messages.chipImplausible] : [];
}
