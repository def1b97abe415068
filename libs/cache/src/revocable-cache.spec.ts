import { revocableCache } from './revocable-cache';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('revocableCache', () => {
  it('answers a remembered value until it expires', async () => {
    const cache = revocableCache<number, { role: string }>({ ttlMs: 40 });
    cache.remember(1, { role: 'user' }, cache.generation());
    expect(cache.get(1)).toEqual({ role: 'user' });
    expect(cache.get(2)).toBeUndefined();
    await pause(60);
    expect(cache.get(1)).toBeUndefined();
  });

  it('forget drops the entry at once', () => {
    const cache = revocableCache<string, string>({ ttlMs: 10_000 });
    cache.remember('a', 'A', cache.generation());
    cache.forget('a');
    expect(cache.get('a')).toBeUndefined();
  });

  it('a read that started before a revocation does not put the old value back', () => {
    const cache = revocableCache<number, string>({ ttlMs: 10_000 });
    const before = cache.generation(); // a read starts
    cache.forget(1); // a change completes meanwhile
    cache.remember(1, 'old', before); // the read returns the old value
    expect(cache.get(1)).toBeUndefined();
  });

  it('keeps what its entries hold under maxSize, the least recently used going first, and never caches a value bigger than it', async () => {
    const cache = revocableCache<number, string>({ ttlMs: 10_000, maxSize: { total: 10, sizeOf: (value) => String(value).length } });
    cache.remember(1, 'aaaa', cache.generation());
    cache.remember(2, 'bbbb', cache.generation());
    expect(cache.get(1)).toBe('aaaa'); // 2 is now the least recently used
    cache.remember(3, 'cccc', cache.generation());
    expect([cache.get(1), cache.get(2), cache.get(3)]).toEqual(['aaaa', undefined, 'cccc']);
    const load = jest.fn(async () => 'x'.repeat(11));
    expect(await cache.getOrLoad(4, load)).toBe('x'.repeat(11));
    expect(await cache.getOrLoad(4, load)).toBe('x'.repeat(11));
    expect(load).toHaveBeenCalledTimes(2);
    expect([cache.get(1), cache.get(3)]).toEqual(['aaaa', 'cccc']);
  });

  it('getOrLoad loads once, then answers from the cache; misses are not cached', async () => {
    const cache = revocableCache<number, string>({ ttlMs: 10_000 });
    const load = jest.fn(async () => 'one');
    expect(await cache.getOrLoad(1, load)).toBe('one');
    expect(await cache.getOrLoad(1, load)).toBe('one');
    expect(load).toHaveBeenCalledTimes(1);
    const missing = jest.fn(async () => null);
    expect(await cache.getOrLoad(2, missing)).toBeUndefined();
    expect(await cache.getOrLoad(2, missing)).toBeUndefined();
    expect(missing).toHaveBeenCalledTimes(2);
  });

  it('getOrLoad does not cache what it read while the key was forgotten', async () => {
    const cache = revocableCache<number, string>({ ttlMs: 10_000 });
    let finish: (value: string) => void = () => undefined;
    const pending = cache.getOrLoad(1, () => new Promise<string>((resolve) => (finish = resolve)));
    cache.forget(1);
    finish('stale');
    expect(await pending).toBe('stale');
    expect(cache.get(1)).toBeUndefined();
  });

  it('keeps at most max entries, dropping the least recently used', () => {
    const cache = revocableCache<number, string>({ ttlMs: 10_000, max: 2 });
    cache.remember(1, 'a', cache.generation());
    cache.remember(2, 'b', cache.generation());
    cache.get(1);
    cache.remember(3, 'c', cache.generation());
    expect([cache.get(1), cache.get(2), cache.get(3)]).toEqual(['a', undefined, 'c']);
  });

  it('get with a maximum age answers only a value read at most that long ago; getOrLoad then reads again', async () => {
    const cache = revocableCache<number, string>({ ttlMs: 10_000 });
    cache.remember(1, 'old', cache.generation());
    expect(cache.get(1, 40)).toBe('old');
    await pause(60);
    expect(cache.get(1, 40)).toBeUndefined();
    expect(cache.get(1)).toBe('old'); // still within the lifetime
    const load = jest.fn(async () => 'new');
    expect(await cache.getOrLoad(1, load, 40)).toBe('new');
    expect(await cache.getOrLoad(1, load, 40)).toBe('new');
    expect(load).toHaveBeenCalledTimes(1);
  });
});
