import v8 from 'node:v8';
import vm from 'node:vm';
import { LRUCache } from 'lru-cache';
import { lruCache } from './lru';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** Heap the caches built by `make` hold together, in MB, between two full collections (they stay referenced until the second). */
function heapOf(count: number, make: () => unknown): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const made = Array.from({ length: count }, make);
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  expect(made).toHaveLength(count);
  return grown / (1024 * 1024);
}

describe('lruCache', () => {
  it('keeps at most max entries, the least recently used going first', () => {
    const cache = lruCache<number, string>({ max: 3 });
    for (const n of [1, 2, 3]) cache.set(n, `v${n}`);
    expect(cache.get(1)).toBe('v1'); // 2 is now the least recently used
    cache.set(4, 'v4');
    expect([...cache.keys()].sort()).toEqual([1, 3, 4]);
    cache.set(5, 'v5');
    expect([...cache.keys()].sort()).toEqual([1, 4, 5]);
    expect(cache.size).toBe(3);
  });

  it('forgets an entry after ttlMs', async () => {
    const cache = lruCache<string, number>({ max: 10, ttlMs: 30 });
    cache.set('a', 1);
    expect(cache.get('a')).toBe(1);
    await pause(50);
    expect(cache.get('a')).toBeUndefined();
  });

  it('with maxSize, bounds both what the entries hold and how many there are, and never keeps a value bigger than the bound', () => {
    const cache = lruCache<number, string>({ max: 3, maxSize: { total: 10, sizeOf: (value) => value.length } });
    cache.set(1, 'aaaa').set(2, 'bbbb');
    cache.set(3, 'cccc'); // 12 > 10: 1 goes
    expect([...cache.keys()].sort()).toEqual([2, 3]);
    for (const n of [4, 5, 6]) cache.set(n, 'x'); // 3 entries at most, though 4+1+1+1 fits
    expect([...cache.keys()].sort()).toEqual([4, 5, 6]);
    cache.set(7, 'y'.repeat(11));
    expect(cache.has(7)).toBe(false);
  });

  it('holds memory for what it caches, not for max: a hundred idle caches of 50,000 with a ttl take under 10 MB of heap', () => {
    // lru-cache's own max would take about 1.9 MB each (190 MB); this is the reason lruCache exists
    expect(heapOf(100, () => lruCache<number, number>({ max: 50_000, ttlMs: 1_000 }))).toBeLessThan(10);
    expect(heapOf(20, () => new LRUCache<number, number>({ max: 50_000, ttl: 1_000 }))).toBeGreaterThan(20);
  });
});
