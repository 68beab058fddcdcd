import type { PublicProfile } from '@petreg/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client.js';
import { loggable } from '../../errors.js';
import { NotifiedCache, type NotifiedCacheMeter } from '../../notifiedCache.js';
import { ChipIndex } from './chipIndex.js';
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

/** Whose pages a public page shows: dropped when a write names the pet or its owner. */
export interface ShownPet {
  petId: number;
  userId: number;
}

/**
 * Public pages, dropped by pet or owner. A bulk upload's commit brings thousands of notifications at
 * once: the pets and owners they name are gathered and the pages dropped in one pass, before the next read.
 */
class PageCache<V extends ShownPet> extends NotifiedCache<V> {
  private readonly pets = new Set<number>();
  private readonly users = new Set<number>();

  forgetShowing(kind: 'pet' | 'user', id: number): void {
    this.anyMayHaveChanged();
    (kind === 'pet' ? this.pets : this.users).add(id);
  }

  protected override settle(): void {
    if (this.pets.size === 0 && this.users.size === 0) return;
    const dropped = this.answers.deleteWhere((page) => this.pets.has(page.petId) || this.users.has(page.userId));
    if (dropped) this.meter.dropped(dropped);
    this.pets.clear();
    this.users.clear();
  }
}

export type PublicCaches = Awaited<ReturnType<typeof createPublicCaches>>;

export async function createPublicCaches(database: Pick<DatabaseHandle, 'db' | 'listen'>, log: Pick<FastifyBaseLogger, 'warn'>, meter: CacheMeter = unmetered) {
  const meterOf = (name: PublicCacheName): NotifiedCacheMeter => ({ read: (hit) => meter.read(name, hit), dropped: (count) => meter.dropped(name, count) });
  // A walk through random chip numbers only pushes out the oldest answers (about 20 MB at most).
  const lookups = new NotifiedCache<ChipRegistration>(TTL_MS, 100_000, meterOf('lookup'));
  const profiles = new PageCache<ShownPet & { profile: PublicProfile }>(TTL_MS, 10_000, meterOf('profile'));
  const shortLinks = new PageCache<ShownPet & { publicId: string }>(TTL_MS, 10_000, meterOf('short_link'));
  const chipIndex = new ChipIndex(database.db);

  const trouble = (channel: string) => (error: unknown) =>
    log.warn({ err: loggable(error), channel }, 'cannot listen for changes to public answers: they are read from the database meanwhile');
  const chips = await database.listen(
    chipLookupChannel,
    (chipId) => {
      lookups.forget(chipId || null);
      chipIndex.onChange(chipId || null);
    },
    trouble(chipLookupChannel),
  );
  lookups.subscription = chips;
  chipIndex.subscription = chips;
  // Loaded beside the start; numbers are read from the database until it has.
  if (chips.live()) void chipIndex.load();
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
    chipIndex,
    profiles,
    shortLinks,
    /** Whether every change to a public answer is heard now (the readiness check's "listener"). */
    listening: () => chips.live() && pages.live(),
    close: () => Promise.all([chips.close(), pages.close()]).then(() => undefined),
  };
}
