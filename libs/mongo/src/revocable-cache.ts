import { LRUCache } from 'lru-cache';

export interface RevocableCacheOptions {
  /** How long an entry is trusted without reading the database again. */
  ttlMs: number;
  /** Entries kept at most; the least recently used go first. */
  max?: number;
}

/**
 * A short-lived in-process cache of stored documents (the user behind a credential), revocable at
 * once in this process: whoever changes such a document through this process calls `forget`.
 * Changes made by other processes (replicas, scripts) are seen when the entry expires, after at
 * most `ttlMs`. Misses (a document that does not exist) are never cached.
 */
export interface RevocableCache<K, V> {
  get(key: K): V | undefined;
  /** A token to pass to `remember`: a `forget` in between makes that `remember` a no-op. */
  generation(): number;
  /** Caches a value read since `generation()` returned `since`, unless something was forgotten meanwhile. */
  remember(key: K, value: V, since: number): void;
  /** Drops the entry; call it after (or when attempting) any change to the document. */
  forget(key: K): void;
  /** The cached value, else `load()`'s (cached unless null or revoked meanwhile). */
  getOrLoad(key: K, load: () => Promise<V | null | undefined>): Promise<V | undefined>;
}

export function revocableCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>({ ttlMs, max = 10_000 }: RevocableCacheOptions): RevocableCache<K, V> {
  const entries = new LRUCache<K, V>({ max, ttl: ttlMs });
  // Bumped by every forget: a read that started before a revocation finished must not put the
  // old document back into the cache.
  let forgets = 0;
  const cache: RevocableCache<K, V> = {
    get: (key) => entries.get(key),
    generation: () => forgets,
    remember(key, value, since) {
      if (since === forgets) entries.set(key, value);
    },
    forget(key) {
      forgets++;
      entries.delete(key);
    },
    async getOrLoad(key, load) {
      const hit = entries.get(key);
      if (hit !== undefined) return hit;
      const since = forgets;
      const value = await load();
      if (value === null || value === undefined) return undefined;
      cache.remember(key, value, since);
      return value;
    },
  };
  return cache;
}
