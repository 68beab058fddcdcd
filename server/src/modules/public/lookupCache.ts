import type { MicrochipLookup } from '@petreg/contract';
import type { DatabaseHandle } from '../../db/client.js';
import { RecentCache } from '../../recent.js';

/** The channel the chips' and pets' triggers notify with a chip number (migration 0010_lookup_notify). */
export const chipLookupChannel = 'chip_lookup';

/**
 * An answer lives until the chip's registration runs out by itself; the TTL only bounds a change the
 * triggers cannot see (an operator's SQL with triggers disabled).
 */
const TTL_MS = 10 * 60_000;
/** About 20 MB at most; a walk through random chip numbers only pushes out the oldest answers. */
const MAX_ANSWERS = 100_000;

export type ChipLookupCache = Awaited<ReturnType<typeof createChipLookupCache>>;

/**
 * Lookup answers by chip number, dropped the moment a write that changes one commits, on every instance:
 * the database notifies each listening instance of the chip numbers written. While notifications could
 * be missed (a server's listening connection is down), nothing is served from memory or remembered.
 */
export async function createChipLookupCache(database: Pick<DatabaseHandle, 'listen'>) {
  const answers = new RecentCache<string, MicrochipLookup>(TTL_MS, MAX_ANSWERS);
  // Bumped by every notification: an answer read before one arrived may predate the write it announces.
  let generation = 0;
  const subscription = await database.listen(chipLookupChannel, (chipId) => {
    generation++;
    if (chipId) answers.delete(chipId);
    else answers.clear();
  });

  return {
    get: (chipId: string) => (subscription.live() ? answers.get(chipId) : undefined),
    /** The moment a read starts; `remember` keeps its answer only if nothing was written since. */
    ticket: () => generation,
    remember(ticket: number, chipId: string, answer: MicrochipLookup, until?: Date) {
      if (ticket === generation && subscription.live()) answers.set(chipId, answer, until?.getTime());
    },
    close: () => subscription.close(),
  };
}
