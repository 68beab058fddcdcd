import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecentCache } from '../src/recent.js';

describe('RecentCache', () => {
  afterEach(() => vi.useRealTimers());

  it('forgets a value after its time', () => {
    vi.useFakeTimers();
    const cache = new RecentCache<string, number>(1000, 10);
    cache.set('a', 1);
    vi.advanceTimersByTime(999);
    expect(cache.get('a')).toBe(1);
    vi.advanceTimersByTime(2);
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the oldest value when full, and values on request', () => {
    const cache = new RecentCache<string, number>(60_000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBe(3);
    cache.deleteWhere((v) => v === 3);
    expect(cache.get('c')).toBeUndefined();
    cache.delete('b');
    expect(cache.get('b')).toBeUndefined();
  });
});
