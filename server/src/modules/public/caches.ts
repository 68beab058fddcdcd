import type { MicrochipLookup, PublicProfile } from '@petreg/contract';
import type { DatabaseHandle, Subscription } from '../../db/client.js';
import { RecentCache } from '../../recent.js';

/**
 * The channels the triggers of migration 0010_lookup_notify notify at commit: the chip numbers whose
 * lookup a write changed, and 'pet:{id}' / 'user:{id}' whose public pages it changed ('' for all).
 */
export const chipLookupChannel = 'chip_lookup';
export const publicPetChannel = 'public_pet';

/**
 * An answer lives until a write changes it or time does (a yearly registration running out, a pet's
 * age); the TTL only bounds a change the triggers cannot see (an operator's SQL with triggers disabled).
 */
const TTL_MS = 10 * 60_000;

/**
 * Answers kept in memory and dropped the moment a write that changes one commits, on every instance:
 * the database notifies each listening instance. While notifications could be missed (a server's
 * listening connection is down), nothing is served from memory or remembered.
 */
class AnswerCache<V> {
  private readonly answers: RecentCache<string, V>;
  // Bumped by every notification: an answer read before one arrived may predate the write it announces.
  private generation = 0;
  subscription: Subscription | null = null;

  constructor(max: number) {
    this.answers = new RecentCache(TTL_MS, max);
  }

  /** The answer remembered, once this process's own writes so far have been heard of. */
  async get(key: string): Promise<V | undefined> {
    await this.subscription?.caughtUp();
    return this.subscription?.live() ? this.answers.get(key) : undefined;
  }

  /** The moment a read starts; `remember` keeps its answer only if nothing was written since. */
  ticket(): number {
    return this.generation;
  }

  remember(ticket: number, key: string, answer: V, until?: Date): void {
    if (ticket === this.generation && this.subscription?.live()) this.answers.set(key, answer, until?.getTime());
  }

  /** A write committed: drops the answer it changed, or all of them (null). */
  forget(key: string | null): void {
    this.generation++;
    if (key === null) this.answers.clear();
    else this.answers.delete(key);
  }

  /** A write committed: drops the answers it may have changed. */
  forgetWhere(changed: (answer: V) => boolean): void {
    this.generation++;
    this.answers.deleteWhere(changed);
  }
}

/** Whose pages a public page shows: dropped when a write names the pet or its owner. */
export interface ShownPet {
  petId: number;
  userId: number;
}

export type PublicCaches = Awaited<ReturnType<typeof createPublicCaches>>;

export async function createPublicCaches(database: Pick<DatabaseHandle, 'listen'>) {
  // A walk through random chip numbers only pushes out the oldest answers (about 20 MB at most).
  const lookups = new AnswerCache<MicrochipLookup>(100_000);
  const profiles = new AnswerCache<ShownPet & { profile: PublicProfile }>(10_000);
  const shortLinks = new AnswerCache<ShownPet & { publicId: string }>(10_000);

  const chips = await database.listen(chipLookupChannel, (chipId) => lookups.forget(chipId || null));
  lookups.subscription = chips;
  const pages = await database.listen(publicPetChannel, (changed) => {
    const [kind, id] = (changed ?? '').split(':');
    const shows =
      kind === 'pet' ? (page: ShownPet) => page.petId === Number(id) : kind === 'user' ? (page: ShownPet) => page.userId === Number(id) : null;
    for (const cache of [profiles, shortLinks]) {
      if (shows) cache.forgetWhere(shows);
      else cache.forget(null);
    }
  });
  profiles.subscription = pages;
  shortLinks.subscription = pages;

  return {
    lookups,
    profiles,
    shortLinks,
    close: () => Promise.all([chips.close(), pages.close()]).then(() => undefined),
  };
}
