import type { Subscription } from './db/client.js';
import { RecentCache } from './recent.js';

/** Hears how a cache serves: each read, answered from memory or not, and answers dropped (for /metrics). */
export interface NotifiedCacheMeter {
  read(hit: boolean): void;
  dropped(count: number): void;
}

const unmetered: NotifiedCacheMeter = { read() {}, dropped() {} };

/**
 * Answers kept in memory and dropped the moment a write that changes one commits, on every instance:
 * the database notifies each listening instance. While notifications could be missed (a server's
 * listening connection is down), nothing is served from memory or remembered; while the database
 * does not answer at all, what was remembered is served.
 */
export class NotifiedCache<V> {
  protected readonly answers: RecentCache<string, V>;
  // Bumped by every notification: an answer read before one arrived may predate the write it announces.
  protected generation = 0;
  subscription: Subscription | null = null;

  /** `ttlMs` only bounds a change no notification announces (an operator's SQL with triggers disabled). */
  constructor(
    ttlMs: number,
    max: number,
    protected readonly meter: NotifiedCacheMeter = unmetered,
  ) {
    this.answers = new RecentCache(ttlMs, max);
  }

  /**
   * The answer remembered, once this process's own writes so far have been heard of; while the
   * database does not answer, as it was when it stopped (no wait on it first).
   */
  get(key: string): V | undefined | Promise<V | undefined> {
    const catchingUp = this.subscription?.unanswered() ? undefined : this.subscription?.caughtUp();
    // At once when there is nothing to wait for: the public answers come here on every request.
    return catchingUp ? catchingUp.then(() => this.kept(key)) : this.kept(key);
  }

  private kept(key: string): V | undefined {
    this.settle();
    const answer = this.subscription?.live() || this.subscription?.unanswered() ? this.answers.get(key) : undefined;
    this.meter.read(answer !== undefined);
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
    if (dropped) this.meter.dropped(dropped);
  }

  /** A write committed: drops the answers it changed. */
  forgetWhere(changed: (answer: V) => boolean): void {
    this.generation++;
    const dropped = this.answers.deleteWhere(changed);
    if (dropped) this.meter.dropped(dropped);
  }
}
