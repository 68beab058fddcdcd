import type { PublicProfile } from '@petreg/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, Subscription } from '../../db/client.js';
import { loggable } from '../../errors.js';
import { RecentCache } from '../../recent.js';
import type { ChipRegistration } from './service.js';

/**
 * The channels the triggers of migration 0012_lookup_notify notify at commit: the chip numbers whose
 * lookup a write changed, and 'pet:{id}' / 'user:{id}' whose public pages it changed ('' for all).
 */
export const chipLookupChannel = 'chip_lookup';
export const publicPetChannel = 'public_pet';

/** The public answers kept in memory, as /metrics names them. */
export type PublicCacheName = 'lookup' | 'profile' | 'short_link' | 'finder_page';

/** Hears how the public answers kept in memory serve (counted for /metrics). */
export interface CacheMeter {
  /** A read: answered from memory, or not (never remembered, dropped, or nothing kept while the listener is down). */
  read(cache: PublicCacheName, hit: boolean): void;
  /** Answers dropped because a write changed them, or because a change may have been missed. */
  dropped(cache: PublicCacheName, count: number): void;
}

export const unmetered: CacheMeter = { read() {}, dropped() {} };

/**
 * An answer lives until a write changes it or time does (a yearly registration running out, a pet's
 * age); the TTL only bounds a change the triggers cannot see (an operator's SQL with triggers disabled).
 */
const TTL_MS = 10 * 60_000;

/**
 * Answers kept in memory and dropped the moment a write that changes one commits, on every instance:
 * the database notifies each listening instance. While notifications could be missed (a server's
 * listening connection is down), nothing is served from memory or remembered; while the database
 * does not answer at all, what was remembered is served.
 */
class AnswerCache<V> {
  protected readonly answers: RecentCache<string, V>;
  // Bumped by every notification: an answer read before one arrived may predate the write it announces.
  protected generation = 0;
  subscription: Subscription | null = null;

  constructor(
    max: number,
    protected readonly name: PublicCacheName,
    protected readonly meter: CacheMeter,
  ) {
    this.answers = new RecentCache(TTL_MS, max);
  }

  /**
   * The answer remembered, once this process's own writes so far have been heard of; while the
   * database does not answer, as it was when it stopped (no wait on it first).
   */
  async get(key: string): Promise<V | undefined> {
    if (!this.subscription?.unanswered()) await this.subscription?.caughtUp();
    this.settle();
    const answer = this.subscription?.live() || this.subscription?.unanswered() ? this.answers.get(key) : undefined;
    this.meter.read(this.name, answer !== undefined);
    return answer;
  }

  /** Drops what the notifications heard so far changed, when that is left to the next read. */
  protected settle(): void {}

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
    const dropped = key === null ? this.answers.clear() : Number(this.answers.delete(key));
    if (dropped) this.meter.dropped(this.name, dropped);
  }
}

/** Whose pages a public page shows: dropped when a write names the pet or its owner. */
export interface ShownPet {
  petId: number;
  userId: number;
}

/**
 * Public pages, dropped by pet or owner. A bulk upload's commit brings thousands of notifications at
 * once: the pets and owners they name are gathered and the pages dropped in one pass, before the next read.
 */
class PageCache<V extends ShownPet> extends AnswerCache<V> {
  private readonly pets = new Set<number>();
  private readonly users = new Set<number>();

  forgetShowing(kind: 'pet' | 'user', id: number): void {
    this.generation++;
    (kind === 'pet' ? this.pets : this.users).add(id);
  }

  protected override settle(): void {
    if (this.pets.size === 0 && this.users.size === 0) return;
    const dropped = this.answers.deleteWhere((page) => this.pets.has(page.petId) || this.users.has(page.userId));
    if (dropped) this.meter.dropped(this.name, dropped);
    this.pets.clear();
    this.users.clear();
  }
}

export type PublicCaches = Awaited<ReturnType<typeof createPublicCaches>>;

export async function createPublicCaches(database: Pick<DatabaseHandle, 'listen'>, log: Pick<FastifyBaseLogger, 'warn'>, meter: CacheMeter = unmetered) {
  // A walk through random chip numbers only pushes out the oldest answers (about 20 MB at most).
  const lookups = new AnswerCache<ChipRegistration>(100_000, 'lookup', meter);
  const profiles = new PageCache<ShownPet & { profile: PublicProfile }>(10_000, 'profile', meter);
  const shortLinks = new PageCache<ShownPet & { publicId: string }>(10_000, 'short_link', meter);

  const trouble = (channel: string) => (error: unknown) =>
    log.warn({ err: loggable(error), channel }, 'cannot listen for changes to public answers: they are read from the database meanwhile');
  const chips = await database.listen(chipLookupChannel, (chipId) => lookups.forget(chipId || null), trouble(chipLookupChannel));
  lookups.subscription = chips;
  const pages = await database.listen(publicPetChannel, (changed) => {
    const [kind, id] = (changed ?? '').split(':');
    for (const cache of [profiles, shortLinks]) {
      if (kind === 'pet' || kind === 'user') cache.forgetShowing(kind, Number(id));
      else cache.forget(null);
    }
  }, trouble(publicPetChannel));
  profiles.subscription = pages;
  shortLinks.subscription = pages;

  return {
    lookups,
    profiles,
    shortLinks,
    /** Whether every change to a public answer is heard now (the readiness check's "listener"). */
    listening: () => chips.live() && pages.live(),
    close: () => Promise.all([chips.close(), pages.close()]).then(() => undefined),
  };
}
