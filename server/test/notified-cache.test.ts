import { describe, expect, it } from 'vitest';
import type { Subscription } from '../src/db/client.js';
import { NotifiedCache } from '../src/notifiedCache.js';

/** A cache whose listening connection the test plays: live or not. */
function cacheListening(live = true) {
  const cache = new NotifiedCache<string>(60_000, 100);
  const subscription: Subscription = { live: () => live, unanswered: () => false, caughtUp: () => undefined, close: async () => {} };
  cache.subscription = subscription;
  return cache;
}

describe('NotifiedCache', () => {
  it('keeps an answer read while a write to another key was announced', () => {
    const cache = cacheListening();
    const ticket = cache.ticket();
    cache.forget('other');
    cache.remember(ticket, 'key', 'answer');
    expect(cache.get('key')).toBe('answer');
  });

  it('does not keep an answer read while a write to its own key was announced: it may predate the write', () => {
    const cache = cacheListening();
    const ticket = cache.ticket();
    cache.forget('key');
    cache.remember(ticket, 'key', 'stale');
    expect(cache.get('key')).toBeUndefined();
    // A read started after that announcement is kept.
    cache.remember(cache.ticket(), 'key', 'fresh');
    expect(cache.get('key')).toBe('fresh');
  });

  it('keeps no answer read while every key, or answers chosen by what they hold, were announced', () => {
    const cache = cacheListening();
    let ticket = cache.ticket();
    cache.forget(null);
    cache.remember(ticket, 'key', 'stale');
    expect(cache.get('key')).toBeUndefined();

    ticket = cache.ticket();
    cache.forgetWhere((answer) => answer === 'unrelated');
    cache.remember(ticket, 'key', 'stale');
    expect(cache.get('key')).toBeUndefined();
  });

  it('keeps no answer read while more keys were announced than it tells apart', () => {
    const cache = cacheListening();
    const ticket = cache.ticket();
    // Its own key first, then so many others that the first is no longer told apart.
    cache.forget('key');
    for (let i = 0; i < 10_001; i++) cache.forget(`chip-${i}`);
    cache.remember(ticket, 'key', 'stale');
    expect(cache.get('key')).toBeUndefined();
    cache.remember(cache.ticket(), 'key', 'fresh');
    expect(cache.get('key')).toBe('fresh');
  });

  it('drops the answer a write names, and all of them on null', () => {
    const cache = cacheListening();
    for (const key of ['a', 'b', 'c']) cache.remember(cache.ticket(), key, key);
    cache.forget('a');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 'b', 'c']);
    cache.forget(null);
    expect([cache.get('b'), cache.get('c')]).toEqual([undefined, undefined]);
  });

  it('keeps nothing while notifications could be missed', () => {
    const cache = cacheListening(false);
    cache.remember(cache.ticket(), 'key', 'answer');
    expect(cache.get('key')).toBeUndefined();
  });
});
