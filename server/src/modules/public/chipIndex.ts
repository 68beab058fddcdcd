import { and, asc, gt, isNull } from 'drizzle-orm';
import type { Database, Subscription } from '../../db/client.js';
import { chips } from '../../db/schema.js';

/** Chip numbers read per statement while the index loads: PGlite serves nothing else during one. */
const LOAD_BATCH = 50_000;
/** How long a failed load waits before a lookup starts another. */
const RETRY_LOAD_MS = 5000;
/** The largest whole number a double holds exactly is 16 digits long: every ISO (15), AVID (9) and numeric FDX-A (10) number fits. */
const EXACT_DIGITS = 15;

const isNumeric = (chipId: string) => chipId.length <= EXACT_DIGITS && /^\d+$/.test(chipId);

/** Index of the first element not below `value`, in a sorted array. */
function lowerBound(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The chip numbers the registry holds (every chip not removed, whatever its pet's state), so that a
 * number it does not hold, most of what finders type, is answered "not registered" without a round
 * trip to the database. The index may hold more than the registry (a chip removed since it loaded):
 * such a number is read from the database, as before. It never holds less: it loads while the chip
 * lookup's notifications are heard, every write to a chip (and to a pet's state) names the chip at
 * commit, and whatever could have been missed (the listening connection lost, a TRUNCATE) empties it
 * until it loads again. Until then, and while nothing is heard, every number is read from the database.
 *
 * Memory: the numeric numbers (all but FDX-A numbers with letters) are kept as one sorted Float64Array,
 * 8 bytes a chip (a Set of the same numbers as strings measured 53 bytes a chip, as numbers 37); the
 * others, and the chips heard of since the load, in a Set of strings.
 */
export class ChipIndex {
  private numbers = new Float64Array(0);
  private others = new Set<string>();
  /** Heard of since the index was last emptied. */
  private readonly heard = new Set<string>();
  private state: 'empty' | 'loading' | 'loaded' = 'empty';
  /** Bumped when the index empties: a load started before is not kept. */
  private epoch = 0;
  private retryAt = 0;
  subscription: Subscription | null = null;

  constructor(private readonly db: Database) {}

  /** How many chips the loaded index holds, and its bytes (the heard ones aside). */
  get size() {
    return { chips: this.numbers.length + this.others.size + this.heard.size, numericBytes: this.numbers.byteLength };
  }

  /**
   * Whether the registry may hold the chip: false only when it surely does not. Waits, as the kept
   * answers do, until this process's own writes so far have been heard of; answers at once (no
   * promise, no turn of the queue: every lookup comes here) when there is nothing to wait for.
   */
  mayHold(chipId: string): boolean | Promise<boolean> {
    const catchingUp = this.subscription?.caughtUp();
    return catchingUp ? catchingUp.then(() => this.holds(chipId)) : this.holds(chipId);
  }

  private holds(chipId: string): boolean {
    const subscription = this.subscription;
    if (!subscription) return true;
    // Not while the listening connection is down, even frozen: writes made once the database answers
    // again, before the connection listens again, would go unheard.
    if (!subscription.live()) return true;
    if (this.state !== 'loaded') {
      if (this.state === 'empty' && performance.now() >= this.retryAt) void this.load();
      return true;
    }
    if (this.heard.has(chipId) || this.others.has(chipId)) return true;
    if (!isNumeric(chipId)) return false;
    // Two spellings of one number ("012345678", "000000012345678") share it: the other is read from the database.
    const number = Number(chipId);
    return this.numbers[lowerBound(this.numbers, number)] === number;
  }

  /** A write named the chip (it may now be held), or null: something may have been missed, so the index empties. */
  onChange(chipId: string | null): void {
    if (chipId !== null) {
      this.heard.add(chipId);
      return;
    }
    this.epoch++;
    this.state = 'empty';
    this.heard.clear();
    this.numbers = new Float64Array(0);
    this.others = new Set();
  }

  /**
   * Reads every chip not removed, in batches along the chip number's index. It starts only while the
   * notifications are heard, so a chip written during the load is read by it or heard of (or both).
   */
  async load(): Promise<void> {
    const epoch = this.epoch;
    this.state = 'loading';
    const numbers: number[] = [];
    const others = new Set<string>();
    try {
      let after: string | null = null;
      for (;;) {
        const rows: { chipId: string }[] = await this.db
          .select({ chipId: chips.chipId })
          .from(chips)
          .where(and(isNull(chips.removedAt), after === null ? undefined : gt(chips.chipId, after)))
          .orderBy(asc(chips.chipId))
          .limit(LOAD_BATCH);
        if (epoch !== this.epoch) return;
        for (const { chipId } of rows) {
          if (isNumeric(chipId)) numbers.push(Number(chipId));
          else others.add(chipId);
        }
        if (rows.length < LOAD_BATCH) break;
        after = rows[rows.length - 1]!.chipId;
      }
    } catch {
      // The database is out of reach: numbers are read from it (and answered 503) until a later load.
      if (epoch === this.epoch) {
        this.state = 'empty';
        this.retryAt = performance.now() + RETRY_LOAD_MS;
      }
      return;
    }
    if (epoch !== this.epoch) return;
    this.numbers = Float64Array.from(numbers).sort();
    this.others = others;
    this.state = 'loaded';
  }
}
