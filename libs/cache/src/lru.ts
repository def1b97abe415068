import { LRUCache } from 'lru-cache';

export interface LruOptions<V> {
  /** Entries kept at most; the least recently used go first. */
  max: number;
  /** How long an entry is kept, in ms (none: until evicted). */
  ttlMs?: number;
  /** A bound on what the entries hold together, in `sizeOf`'s units; a value bigger than the whole bound is not kept. */
  maxSize?: { total: number; sizeOf(value: V): number };
}

/**
 * An LRU cache bounded by entry count (and optionally by size), whose memory grows with what it
 * holds. lru-cache's own `max` allocates its index arrays for `max` entries when it is built (with a
 * ttl, six of them: about 1.9 MB of heap at 50,000 entries, held by an idle process for good); here
 * each entry counts as size 1 against the same bound instead, so the arrays grow as entries come.
 * With `maxSize`, sizes are the values' and the count is kept by evicting the least recently used.
 */
export function lruCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>({ max, ttlMs, maxSize }: LruOptions<V>): LRUCache<K, V> {
  const ttl = ttlMs === undefined ? {} : { ttl: ttlMs };
  if (!maxSize) return new LRUCache<K, V>({ maxSize: max, sizeCalculation: () => 1, ...ttl });
  return new SizedLru<K, V>(max, { maxSize: maxSize.total, sizeCalculation: (value) => Math.max(1, maxSize.sizeOf(value)), ...ttl });
}

/** Sizes bound by lru-cache, the count by evicting the least recently used after each set. */
class SizedLru<K extends NonNullable<unknown>, V extends NonNullable<unknown>> extends LRUCache<K, V> {
  constructor(
    private readonly maxEntries: number,
    options: LRUCache.Options<K, V, unknown>,
  ) {
    super(options);
  }

  override set(key: K, value: V, options?: LRUCache.SetOptions<K, V, unknown>): this {
    super.set(key, value, options);
    while (this.size > this.maxEntries) this.pop();
    return this;
  }
}
