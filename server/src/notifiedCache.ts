import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, Subscription } from './db/client.js';
import { loggable } from './errors.js';
import { RecentCache } from './recent.js';

/** Hears how a cache serves: each read, answered from memory or not, and answers dropped (for /metrics). */
export interface NotifiedCacheMeter {
  read(hit: boolean): void;
  dropped(count: number): void;
}

const unmetered: NotifiedCacheMeter = { read() {}, dropped() {} };
/** How many keys' last notifications are told apart; reads last milliseconds, so more come only in bursts. */
const KEYS_NOTIFIED = 10_000;

/**
 * Answers kept in memory and dropped the moment a write that changes one commits, on every instance:
 * the database notifies each listening instance. While notifications could be missed (a server's
 * listening connection is down), nothing is served from memory or remembered; while the database
 * does not answer at all, what was remembered is served.
 */
export class NotifiedCache<V> {
  protected readonly answers: RecentCache<string, V>;
  // Counts notifications: an answer read before one that names its key (or every key) arrived may
  // predate the write it announces. A write to another key leaves a read in flight good to keep.
  private generation = 0;
  // The last notification that named every key; reads started before it are not kept.
  private everyKeyAt = 0;
  // The last notification that named each key since then.
  private readonly keyAt = new Map<string, number>();
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

  /** The moment a read starts; `remember` keeps its answer only if nothing was written to its key since. */
  ticket(): number {
    return this.generation;
  }

  remember(ticket: number, key: string, answer: V, until?: Date): void {
    const written = Math.max(this.everyKeyAt, this.keyAt.get(key) ?? 0);
    if (ticket >= written && this.subscription?.live()) this.answers.set(key, answer, until?.getTime());
  }

  /** A write committed: drops the answer it changed, or all of them (null). */
  forget(key: string | null): void {
    if (key === null) {
      this.anyMayHaveChanged();
      const dropped = this.answers.clear();
      if (dropped) this.meter.dropped(dropped);
      return;
    }
    // Past so many keys (a bulk upload's commit), they are forgotten by counting them as every key.
    if (this.keyAt.size >= KEYS_NOTIFIED) this.anyMayHaveChanged();
    else this.keyAt.set(key, ++this.generation);
    if (this.answers.delete(key)) this.meter.dropped(1);
  }

  /** A write committed: drops the answers it changed. */
  forgetWhere(changed: (answer: V) => boolean): void {
    this.anyMayHaveChanged();
    const dropped = this.answers.deleteWhere(changed);
    if (dropped) this.meter.dropped(dropped);
  }

  /** A notification that names answers by what they hold, not by key: no read in flight is kept. */
  protected anyMayHaveChanged(): void {
    this.generation++;
    this.everyKeyAt = this.generation;
    this.keyAt.clear();
  }
}

/**
 * A cache of answers by key that listens on `channel`, whose triggers notify the key a write changed
 * ('' for every key). `meanwhile` says, for the log, what happens while it cannot listen.
 */
export async function cacheForgottenByChannel<V>(
  database: Pick<DatabaseHandle, 'listen'>,
  log: Pick<FastifyBaseLogger, 'warn'>,
  options: { channel: string; ttlMs: number; max: number; meanwhile: string },
): Promise<NotifiedCache<V>> {
  const { channel } = options;
  const cache = new NotifiedCache<V>(options.ttlMs, options.max);
  cache.subscription = await database.listen(
    channel,
    (changed) => cache.forget(changed || null),
    (error) => log.warn({ err: loggable(error), channel }, options.meanwhile),
  );
  return cache;
}
