import { driverCollection, insertWithSequenceId, isDuplicateKey, timeOrderedIds } from '@lib/mongo';
import type { Connection } from 'mongoose';
import { apiKeyModel, type ApiKeyDoc } from './api-key.model';

/** What a new key stores besides its owner and slot (the hash depends on the id, which is part of the key). */
export type NewKey = Pick<ApiKeyDoc, 'name' | 'hash' | 'created_at'>;

/** The API keys: the only module that knows their model and collection. */
export function apiKeyRepository(connection: Connection, keysPerUser: number) {
  const ApiKey = apiKeyModel(connection);
  const keys = driverCollection(ApiKey);
  const ids = timeOrderedIds(connection, 'api_keys');
  const slotsOf = async (user: number) => new Set((await keys.find({ user }, { projection: { slot: 1 } }).toArray()).map((key) => key.slot));

  return {
    /** The user's keys, oldest slot first. */
    ofUser: (user: number): Promise<ApiKeyDoc[]> => keys.find({ user }, { sort: { slot: 1 } }).toArray(),
    byId: (id: number): Promise<ApiKeyDoc | null> => keys.findOne({ _id: id }),

    /**
     * Stores the key in the user's first free slot; undefined when the user has `keysPerUser`
     * keys. The unique index on (user, slot) decides between concurrent creates: the loser of a
     * slot reads the slots again (each round one of them wins, so it ends).
     */
    async insert(user: number, build: (id: number) => NewKey): Promise<ApiKeyDoc | undefined> {
      for (let round = 0; round <= keysPerUser; round++) {
        const taken = await slotsOf(user);
        const slot = Array.from({ length: keysPerUser }, (_, i) => i).find((i) => !taken.has(i));
        if (slot === undefined) return undefined;
        try {
          return await insertWithSequenceId(ApiKey, ids, (id) => ({ ...build(id), _id: id, user, slot }));
        } catch (err) {
          if (!isDuplicateKey(err)) throw err; // a taken id is drawn again inside; this is the slot, taken meanwhile
        }
      }
      throw new Error(`the key slots of user ${user} kept changing`);
    },

    /** Deletes the user's key; false when the user has no key of that id. */
    remove: async (user: number, id: number) => (await keys.deleteOne({ _id: id, user })).deletedCount === 1,
    removeOfUser: async (user: number) => {
      await keys.deleteMany({ user });
    },
  };
}

export type ApiKeyRepository = ReturnType<typeof apiKeyRepository>;
