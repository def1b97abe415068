import { randomBytes } from 'node:crypto';
import type { RevocableCache } from '@lib/cache';
import { HttpError, notFound } from '@lib/errors';
import { sameBytes, sha256 } from '@lib/http';
import type { UserDoc } from '../users/user.model';
import type { ApiKeyDoc } from './api-key.model';
import type { ApiKeyRepository } from './api-key.repository';
import { USAGE_KEPT_DAYS, utcDay } from './key-limits';
import type { KeyUsageRepository } from './key-usage.repository';

/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const KEY_PREFIX = 'nk_';
/** Random bytes of a key's secret part: 256 bits, 43 characters of base64url. */
const SECRET_BYTES = 32;
/** `nk_<id>_<secret>`: the id finds the stored hash, the whole key is what is hashed. */
const KEY_SHAPE = /^nk_([1-9]\d{0,15})_[A-Za-z0-9_-]{43}$/;

const DAY_MS = 86_400_000;

export interface ApiKeyServiceDeps {
  keys: ApiKeyRepository;
  usage: KeyUsageRepository;
  /** The keys by id, cleared on every replica within 1 s when one is deleted (apiKeyCache). */
  cache: RevocableCache<number, ApiKeyDoc>;
  /** The user behind a token or key, as the token-user cache has it (a deleted user is refused on every replica within 1 s). */
  userOf(id: number): Promise<UserDoc | undefined>;
  keysPerUser: number;
}

export interface UsageRow {
  key: ApiKeyDoc;
  day: string;
  requests: number;
}

/** The hash a key is stored and checked under. */
const hashOf = (key: string) => sha256(key);

export function apiKeyService({ keys, usage, cache, userOf, keysPerUser }: ApiKeyServiceDeps) {
  const tooMany = () =>
    new HttpError(409, 'key_limit_reached', `A user may have at most ${keysPerUser} API keys: delete one (DELETE /users/me/keys/{id}) before creating another`);

  return {
    /** A new key of the user: the stored record and the key itself, which is never stored or shown again. */
    async create(user: number, name: string): Promise<{ doc: ApiKeyDoc; key: string }> {
      let key = '';
      const doc = await keys.insert(user, (id) => {
        key = `${KEY_PREFIX}${id}_${randomBytes(SECRET_BYTES).toString('base64url')}`;
        return { name, hash: hashOf(key).toString('base64url'), created_at: new Date() };
      });
      if (!doc) throw tooMany();
      return { doc, key };
    },

    list: (user: number) => keys.ofUser(user),

    /** Deletes the user's key and its usage; answers once every replica has been told to refuse it (within 1 s). */
    async remove(user: number, id: number): Promise<void> {
      let deleted: boolean;
      try {
        deleted = await keys.remove(user, id);
      } catch (err) {
        await cache.revoke(id).catch(() => undefined); // the write may have been applied
        throw err;
      }
      if (!deleted) throw notFound(`You have no API key ${id}`);
      await cache.revoke(id);
      await usage.removeOfKey(id);
    },

    /** The user's keys and usage go with the user (their keys were refused as soon as the user was). */
    async removeOfUser(user: number): Promise<void> {
      await keys.removeOfUser(user);
      await usage.removeOfUser(user);
    },

    /** Requests of each of the user's keys per UTC day over the last `days` days (today included), newest first; days without requests left out. */
    async usage(user: number, days: number): Promise<{ from: string; to: string; rows: UsageRow[] }> {
      const now = Date.now();
      const from = utcDay(now - (Math.min(days, USAGE_KEPT_DAYS) - 1) * DAY_MS);
      const [owned, rows] = await Promise.all([keys.ofUser(user), usage.ofUser(user, from)]);
      const byId = new Map(owned.map((key) => [key._id, key]));
      // a row of a key deleted meanwhile (a request counted as it was deleted) has no key left to show
      const shown = rows.flatMap((row) => {
        const key = byId.get(row.key);
        return key ? [{ key, day: row.day, requests: row.count }] : [];
      });
      return { from, to: utcDay(now), rows: shown };
    },

    /**
     * The key and its user when `presented` is a key of a user that exists: its record from the
     * cache (else read and cached), the hash compared in constant time. Undefined otherwise.
     */
    async verify(presented: string): Promise<{ key: ApiKeyDoc; user: UserDoc } | undefined> {
      const match = KEY_SHAPE.exec(presented);
      if (!match) return undefined;
      const id = Number(match[1]);
      if (!Number.isSafeInteger(id)) return undefined;
      const key = await cache.getOrLoad(id, () => keys.byId(id));
      if (!key || !sameBytes(hashOf(presented), Buffer.from(key.hash, 'base64url'))) return undefined;
      const user = await userOf(key.user);
      return user ? { key, user } : undefined;
    },
  };
}

export type ApiKeyService = ReturnType<typeof apiKeyService>;
