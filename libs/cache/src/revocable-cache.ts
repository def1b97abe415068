import { lruCache } from './lru';

/**
 * Where revocations travel between processes: the database's revocation log (`revocationLog` in
 * @lib/mongo) is the one in use.
 */
export interface RevocationFeed {
  publish(scope: string, key: string): Promise<void>;
  subscribe(scope: string, subscriber: { revoke(key: string): void; reset(): void }): void;
  /** False while the feed cannot be read: the cache then answers nothing. */
  fresh(): boolean;
}

export interface RevocableCacheOptions<K, V = unknown> {
  /** How long an entry is trusted without reading the database again (a backstop: revocations travel through the log). */
  ttlMs: number;
  /** Entries kept at most; the least recently used go first. */
  max?: number;
  /**
   * A bound on what the entries hold together, in the units `sizeOf` counts (bytes, say): the least
   * recently used go first, and a value bigger than the whole bound is not cached at all.
   */
  maxSize?: { total: number; sizeOf(value: V): number };
  /**
   * The database's revocation log and this cache's scope in it: revocations made by any process
   * reach this cache within REVOCATION_BOUND_MS, and the cache answers nothing while the log cannot
   * be read. Without it, only this process's own `revoke`/`forget` calls reach the cache.
   */
  follow?: { log: RevocationFeed; scope: string; parseKey(key: string): K };
}

/**
 * A short-lived in-process cache of stored documents (the user behind a credential). Whoever
 * changes such a document calls `revoke` once the change is stored: this process forgets at once,
 * and every other process following the same revocation log within its bound. Misses (a document
 * that does not exist) are never cached.
 */
export interface RevocableCache<K, V> {
  /** The cached value; with `maxAgeMs`, only if it was read from the database less than that long ago. */
  get(key: K, maxAgeMs?: number): V | undefined;
  /** A token to pass to `remember`: a `forget` in between makes that `remember` a no-op. */
  generation(): number;
  /** Caches a value read since `generation()` returned `since`, unless something was forgotten meanwhile. */
  remember(key: K, value: V, since: number): void;
  /** Drops the entry in this process only. */
  forget(key: K): void;
  /** Drops the entry here and, through the revocation log, in every process; resolves once the log entry is stored. */
  revoke(key: K): Promise<void>;
  /** The cached value (read less than `maxAgeMs` ago, when given), else `load()`'s (cached unless null or revoked meanwhile). */
  getOrLoad(key: K, load: () => Promise<V | null | undefined>, maxAgeMs?: number): Promise<V | undefined>;
}

/** A cached value and when it was read (Date.now()). */
interface Entry<V> {
  value: V;
  at: number;
}

export function revocableCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>({ ttlMs, max = 10_000, maxSize, follow }: RevocableCacheOptions<K, V>): RevocableCache<K, V> {
  const sized = maxSize && { total: maxSize.total, sizeOf: (entry: Entry<V>) => maxSize.sizeOf(entry.value) };
  const entries = lruCache<K, Entry<V>>({ max, ttlMs, maxSize: sized });
  // Bumped by every forget: a read that started before a revocation finished must not put the
  // old document back into the cache.
  let forgets = 0;
  const trusted = () => !follow || follow.log.fresh();
  const cache: RevocableCache<K, V> = {
    get(key, maxAgeMs) {
      if (!trusted()) return undefined;
      const entry = entries.get(key);
      // younger than maxAgeMs: 0 answers nothing from the cache
      if (entry === undefined || (maxAgeMs !== undefined && Date.now() - entry.at >= maxAgeMs)) return undefined;
      return entry.value;
    },
    generation: () => forgets,
    remember(key, value, since) {
      if (since === forgets) entries.set(key, { value, at: Date.now() });
    },
    forget(key) {
      forgets++;
      entries.delete(key);
    },
    async revoke(key) {
      cache.forget(key);
      await follow?.log.publish(follow.scope, String(key));
    },
    async getOrLoad(key, load, maxAgeMs) {
      const hit = cache.get(key, maxAgeMs);
      if (hit !== undefined) return hit;
      const since = forgets;
      const value = await load();
      if (value === null || value === undefined) return undefined;
      cache.remember(key, value, since);
      return value;
    },
  };
  follow?.log.subscribe(follow.scope, {
    revoke: (key) => cache.forget(follow.parseKey(key)),
    reset: () => {
      forgets++;
      entries.clear();
    },
  });
  return cache;
}
