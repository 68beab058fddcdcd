/**
 * Values remembered for a short time, at most `max` of them (the oldest goes first). For reads on
 * every request that may lag a write made on another instance by up to `ttlMs`.
 */
export class RecentCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (Date.now() >= entry.until) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Remembers the value for `ttlMs`, or until `until` (epoch milliseconds) when that comes sooner. */
  set(key: K, value: V, until = Infinity): void {
    this.entries.delete(key);
    this.entries.set(key, { value, until: Math.min(until, Date.now() + this.ttlMs) });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Whether the key was there to forget (so was any other value forgotten below, even one past its time). */
  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** Forgets the values that match; answers how many. */
  deleteWhere(matches: (value: V) => boolean): number {
    let deleted = 0;
    for (const [key, entry] of this.entries) if (matches(entry.value) && this.entries.delete(key)) deleted++;
    return deleted;
  }

  /** Forgets everything; answers how many values there were. */
  clear(): number {
    const size = this.entries.size;
    this.entries.clear();
    return size;
  }
}
