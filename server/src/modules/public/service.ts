import {
  ageInMonths,
  describeChipNumber,
  formatFoundSince,
  lbsToKg,
  messages,
  sharesContact,
  type MicrochipLookup,
  type PublicPetProfile,
  type PublicProfile,
  type PublicSite,
} from '@petreg/contract';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { imageUrl } from '../../adapters/storage/images.js';
import type { Database } from '../../db/client.js';
import { findZip } from '../../geography.js';
import {
  backupContacts,
  breeds,
  chips,
  petAlerts,
  petBreeds,
  pets,
  shortLinks,
  sitePets,
  sites,
  species,
  states,
  users,
} from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { PublicCaches } from './caches.js';
import { isShortCode } from './shortLinks.js';

const uuid = z.uuid();
const isUuid = (value: string) => uuid.safeParse(value).success;
const timestamp = (value: Date | null) => (value ? value.toISOString() : null);

export type PublicService = ReturnType<typeof createPublicService>;

/** What the registry knows of a chip number: the public lookup's answer and when its registration last changed. */
export interface ChipRegistration {
  lookup: MicrochipLookup;
  /** The latest of the chip's registration, its pet's last change and its owner's last contact change; null when not registered. */
  lastUpdated: Date | null;
}

/**
 * What memory keeps, at once when it knows it (no promise, no turn of the queue for an answer already
 * in hand: the public answers come here on every request); otherwise what `read` finds.
 */
function keptOr<V, T>(known: V | undefined | Promise<V | undefined>, shown: (kept: V) => T, read: () => Promise<T>): T | Promise<T> {
  if (known instanceof Promise) return known.then((kept) => (kept === undefined ? read() : shown(kept)));
  return known === undefined ? read() : shown(known);
}

/** The next local midnight: a pet's age in months changes at one (its birth date is a local date). */
const nextMidnight = (now: Date) => new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);

/** What anyone may learn without signing in: whether a chip is registered, a pet's public profile, a short link's target. */
export function createPublicService(deps: { db: Database; caches: PublicCaches }) {
  const { db } = deps;
  const { lookups, chipIndex, profiles, shortLinks: linkTargets } = deps.caches;

  const answerFor = (chipId: string, registered?: { id: string; lastUpdated: Date }): ChipRegistration => ({
    lookup: { result: registered ? { id: registered.id } : null, isRegistered: Boolean(registered), chip: describeChipNumber(chipId) },
    lastUpdated: registered?.lastUpdated ?? null,
  });

  // The finders' reads, built once and prepared on the server under their names (see `openServerDatabase`).
  const registeredChip = db
    .select({
      id: chips.chipId,
      oneTime: chips.oneTime,
      expirationDate: chips.expirationDate,
      // The chip registered, the pet changed (or moved to another owner), the owner's contact details changed.
      lastUpdated: sql`greatest(${chips.createdAt}, ${pets.updatedAt}, ${users.contactUpdatedAt})`.mapWith(chips.createdAt),
    })
    .from(chips)
    .innerJoin(pets, eq(pets.id, chips.petId))
    .innerJoin(users, eq(users.id, pets.userId))
    .where(
      and(
        eq(chips.chipId, sql.placeholder('chipId')),
        isNull(chips.removedAt),
        eq(chips.isActive, true),
        or(eq(chips.oneTime, true), isNull(chips.expirationDate), gt(chips.expirationDate, sql.placeholder('now'))),
        eq(pets.isActive, true),
        isNull(pets.deletedAt),
      ),
    )
    .limit(1)
    .prepare('public_registered_chip');
  // A profile in one statement: its breeds, open alert and first vet and backup contact beside the pet.
  const profileRow = db
    .select({
      pet: pets,
      species: species.name,
      owner: {
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        phone: users.phoneNumber,
        photo: users.photo,
        protectedAt: users.recordProtectedAt,
      },
      state: { abbreviation: states.abbreviation, country: states.countryAbbreviation },
      breedNames: sql<string | null>`(select string_agg(${breeds.name}, ', ' order by ${breeds.name}) from ${petBreeds}
        join ${breeds} on ${breeds.id} = ${petBreeds.breedId} where ${petBreeds.petId} = ${pets.id})`,
      // Out to the professionals and not found yet; an alert still waiting for payment announces nothing.
      alertStatus: sql<string | null>`(select ${petAlerts.status} from ${petAlerts} where ${petAlerts.petId} = ${pets.id} and ${petAlerts.status} = 'paid'
        order by ${petAlerts.createdAt} desc limit 1)`,
      firstContact: sql<PublicPetProfile['backupContacts'][number] | null>`(select json_build_object('id', ${backupContacts.id}, 'phoneNumber', ${backupContacts.phoneNumber})
        from ${backupContacts} where ${backupContacts.userId} = ${pets.userId} and ${backupContacts.deletedAt} is null order by ${backupContacts.id} limit 1)`,
      // A live link, to a site in the directory or taken out of it.
      firstSite: sql<PublicSite | null>`(select json_build_object('id', ${sites.id}, 'googlePlaceId', ${sites.googlePlaceId}, 'phoneNumber', ${sites.phoneNumber})
        from ${sitePets} join ${sites} on ${sites.id} = ${sitePets.siteId} where ${sitePets.petId} = ${pets.id} and ${sitePets.deletedAt} is null
        order by ${sitePets.id} limit 1)`,
    })
    .from(pets)
    .innerJoin(users, eq(users.id, pets.userId))
    .leftJoin(states, eq(states.id, users.stateId))
    .leftJoin(species, eq(species.id, pets.speciesId))
    .where(and(eq(pets.publicId, sql.placeholder('publicId')), isNull(pets.deletedAt), eq(users.isActive, true)))
    .prepare('public_profile_row');
  const shortLinkRow = db
    .select({ publicId: pets.publicId, petId: pets.id, userId: pets.userId })
    .from(shortLinks)
    .innerJoin(pets, eq(pets.id, shortLinks.petId))
    .innerJoin(users, eq(users.id, pets.userId))
    .where(and(eq(shortLinks.code, sql.placeholder('code')), isNull(pets.deletedAt), eq(users.isActive, true)))
    .prepare('public_short_link_row');

  /**
   * Registered means held by an active pet, on an enabled chip whose registration has not run out.
   * Answers are remembered until a write touches the chip, its pet or its owner's contact details, or
   * a yearly registration runs out. Answered at once, with no promise, when memory knows (a number no
   * chip holds, or a remembered answer).
   */
  function registration(chipId: string): ChipRegistration | Promise<ChipRegistration> {
    const mayHold = chipIndex.mayHold(chipId);
    if (mayHold instanceof Promise) return mayHold.then((may) => (may ? registered(chipId) : answerFor(chipId)));
    // Most numbers finders type are held by no chip here: answered without a round trip.
    return mayHold ? registered(chipId) : answerFor(chipId);
  }

  const registered = (chipId: string) => keptOr(lookups.get(chipId), (kept) => kept, () => readRegistration(chipId));

  async function readRegistration(chipId: string): Promise<ChipRegistration> {
    const ticket = lookups.ticket();
    const [registered] = await registeredChip.execute({ chipId, now: new Date().toISOString() });
    const answer = answerFor(chipId, registered);
    const runsOut = registered && !registered.oneTime ? (registered.expirationDate ?? undefined) : undefined;
    lookups.remember(ticket, chipId, answer, runsOut);
    return answer;
  }

  async function readProfile(publicId: string): Promise<PublicProfile> {
    const ticket = profiles.ticket();
    const now = new Date();
    const [row] = await profileRow.execute({ publicId });
    if (!row) throw notFound(messages.notFound);
    const { pet, owner, state } = row;

    const missingDate = timestamp(pet.missingDate);
    const foundDate = timestamp(pet.foundDate);
    // A protected record (an administrator's flag) shows nothing of the owner, whatever the owner chose:
    // finders reach them through the found-report relay only.
    const hidden = owner.protectedAt !== null;
    const shareContactInfo = pet.shareContactInfo && !hidden;
    const shared = sharesContact({ missingDate, foundDate, shareContactInfo });
    // The last-seen ZIP says where the pet went missing; it stays private otherwise.
    const zipcode = missingDate ? pet.zipCode : null;
    const lastSeen = zipcode ? await findZip(db, zipcode) : null;
    // The first vet and backup contact, for a pet whose owner shares them.
    const reachable = shared
      ? { backupContacts: row.firstContact ? [row.firstContact] : [], sites: row.firstSite ? [row.firstSite] : [] }
      : { backupContacts: [], sites: [] };

    const profile: PublicPetProfile = {
      petName: pet.name,
      species: row.species,
      breed: row.breedNames,
      age: ageInMonths(pet.dob, now),
      sex: pet.sex as PublicPetProfile['sex'],
      weight: pet.approximateWeight === null ? null : lbsToKg(Number(pet.approximateWeight)),
      image: imageUrl('pets', pet.image),
      zipcode,
      lastSeenPlace: lastSeen?.place ?? zipcode,
      missingDate,
      foundDate,
      foundSince: pet.foundDate ? formatFoundSince(pet.foundDate, now) : null,
      alertStatus: row.alertStatus,
      shareContactInfo,
      firstName: hidden ? null : owner.firstName,
      lastName: hidden ? null : owner.lastName,
      state: state && !hidden ? { abbreviation: state.abbreviation } : null,
      country: hidden ? null : (state?.country ?? null),
      userPhoto: hidden ? null : imageUrl('users', owner.photo),
      email: shared ? owner.email : null,
      phone: shared ? owner.phone : null,
      backupContacts: reachable.backupContacts,
    };
    const answer = { pet: profile, sites: reachable.sites };
    if (!pet.foundDate) profiles.remember(ticket, publicId, { petId: pet.id, userId: pet.userId, profile: answer }, nextMidnight(now));
    return answer;
  }

  async function readShortLinkTarget(code: string): Promise<string> {
    const ticket = linkTargets.ticket();
    const [row] = await shortLinkRow.execute({ code });
    if (!row) throw notFound(messages.invalidShortUrl);
    linkTargets.remember(ticket, code, row);
    return row.publicId;
  }

  return {
    registration,

    /** The public lookup's answer (utilities/microchip-lookup); at once when memory knows it. */
    lookup(chipId: string): MicrochipLookup | Promise<MicrochipLookup> {
      const found = registration(chipId);
      return found instanceof Promise ? found.then((answer) => answer.lookup) : found.lookup;
    },

    /**
     * The profile behind a public id; unknown, removed pets and deactivated owners' pets are not found.
     * Remembered until a write changes what it shows, or the day ends (the age); a found pet's "found
     * since" moves by the minute, so its profile is read each time.
     */
    profile(publicId: string): PublicProfile | Promise<PublicProfile> {
      if (!isUuid(publicId)) throw notFound(messages.notFound);
      return keptOr(profiles.get(publicId), (page) => page.profile, () => readProfile(publicId));
    },
    /** The public id of the pet a short link names; remembered until a write changes the pet or its owner. */
    shortLinkTarget(code: string): string | Promise<string> {
      const normalised = code.toLowerCase();
      if (!isShortCode(normalised)) throw notFound(messages.invalidShortUrl);
      return keptOr(linkTargets.get(normalised), (link) => link.publicId, () => readShortLinkTarget(normalised));
    },
  };
}
