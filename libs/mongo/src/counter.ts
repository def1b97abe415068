import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { driverCollection } from './driver-collection';
import { retryWhileRaced } from './retry';

interface CounterDoc {
  _id: string;
  seq: number;
}

const counterSchema = new Schema<CounterDoc>({ _id: String, seq: { type: Number, required: true } }, { versionKey: false });

const counters = (connection: Connection) =>
  driverCollection<CounterDoc>(connection.models.Counter ?? connection.model<CounterDoc>('Counter', counterSchema, 'counters'));

/** MongoDB's duplicate-key error (E11000), from an insert or an upsert. */
export const isDuplicateKey = (err: unknown) => (err as { code?: number }).code === 11000;

/** How many ids one insert may try before it gives up (each retry draws again, after the source was told the id was taken). */
export const MAX_ID_ATTEMPTS = 5;

/** Runs an upsert of a counter; two first calls can both try to insert it, and the loser retries once (by then it exists). */
async function upsertCounter<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return write();
  }
}

/**
 * The next integer of a named sequence, from one atomic `$inc` on the `counters` collection:
 * concurrent callers never get the same number.
 */
export async function nextSequence(connection: Connection, name: string): Promise<number> {
  const counter = await upsertCounter(() =>
    counters(connection).findOneAndUpdate({ _id: name }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' }),
  );
  if (!counter) throw new Error(`counter ${name} was not returned`);
  return counter.seq;
}

/** Where an insert's ids come from: a sequence (idSequence), or time-ordered random ids (timeOrderedIds). */
export interface IdSource {
  next(): Promise<number>;
  /** Told that `id` was taken by another document, before the next draw (`highestStored` reads the collection's highest `_id`). */
  taken(id: number, highestStored: () => Promise<number | undefined>): Promise<void>;
}

/** Ids of one sequence, and the way to move it past ids already stored. */
export interface IdSequence extends IdSource {
  /** Moves the sequence so that every later id is above `id`. */
  skipPast(id: number): Promise<void>;
}

/**
 * A named sequence of integer ids, one atomic `$inc` per id: unique across processes; a create that
 * starts after another one answered gets a larger id; gaps where an id was taken and the insert then
 * failed, or the sequence was moved past stored ids. `offset` is added to each (ids of a sequence
 * that must skip small numbers).
 */
export function idSequence(connection: Connection, name: string, options: { offset?: number } = {}): IdSequence {
  const { offset = 0 } = options;
  const sequence: IdSequence = {
    next: async () => (await nextSequence(connection, name)) + offset,
    // behind the stored ids (a restored backup, a reset counter): past the highest of them
    taken: async (id, highestStored) => sequence.skipPast((await highestStored()) ?? id),
    async skipPast(id) {
      const seq = id - offset;
      try {
        // raised only if below (a missing counter is made); a counter already past it makes the upsert a duplicate key: nothing to do
        await counters(connection).updateOne({ _id: name, seq: { $lt: seq } }, { $set: { seq } }, { upsert: true });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    },
  };
  return sequence;
}

/**
 * The field that holds each inserted document's insert token: a random value drawn for one insert,
 * by which that insert recognises its own document when a retried write reports it as a duplicate.
 */
export const INSERT_TOKEN = 'insert_token';

/**
 * Spread into the schema of every model written by insertWithSequenceId. It is stored and read like
 * any field (views list the fields they show, so it never reaches a client).
 */
export const insertTokenField = { [INSERT_TOKEN]: { type: String } } as const;

type WithToken<T> = T & { [INSERT_TOKEN]: string };

export interface SequenceInsertOptions<T> {
  /** Writes the document (insert token included) and answers it as stored; `model.create` when not given. */
  insert?: (doc: WithToken<T>) => Promise<T>;
  /** Undoes what `build` claimed for a document given up because its id was taken. */
  abandon?: (doc: T) => Promise<void>;
}

/**
 * Inserts `build(id)` under the next id of `ids`, with a fresh insert token.
 *
 * A duplicate `_id` held by a document with another token (or none) means the id was taken: a
 * random id drawn twice, or a sequence behind the stored ids (a restored backup, a reset counter).
 * The source is told (`taken`: a sequence moves past the highest stored `_id`), `abandon` undoes the
 * attempt, and the document is built again under a fresh id (at most MAX_ID_ATTEMPTS ids in all).
 * A document with equal content is someone else's: two identical requests make two records.
 *
 * A duplicate `_id` held by a document with this insert's token means the reply to the insert was
 * lost and the driver retried it (a server that does not deduplicate retried writes, like the
 * embedded one, then reports the duplicate): that is this insert's own write, so it is the answer.
 */
export async function insertWithSequenceId<T extends { _id: number }>(
  model: Model<T>,
  ids: IdSource,
  build: (id: number) => T | Promise<T>,
  options: SequenceInsertOptions<T> = {},
): Promise<T> {
  if (!model.schema.path(INSERT_TOKEN)) throw new Error(`the schema of ${model.modelName} must declare insertTokenField`);
  const insert = options.insert ?? (async (doc: WithToken<T>) => (await model.create(doc)).toObject() as T);
  let taken: unknown;
  return retryWhileRaced(
    async () => {
      const doc = await build(await ids.next());
      const token = randomBytes(12).toString('base64url');
      try {
        return withoutToken(await insert({ ...doc, [INSERT_TOKEN]: token }));
      } catch (err) {
        const holder = await duplicateIdHolder(err, model, doc._id, token);
        if (holder === 'no') throw err;
        if (holder !== 'another') return holder;
        await options.abandon?.(doc);
        taken = err;
        await ids.taken(doc._id, async () => (await model.findOne({}, { _id: 1 }).sort({ _id: -1 }).lean<{ _id: number }>())?._id);
        return undefined;
      }
    },
    // every id drawn was taken: the last duplicate-key error
    () => taken as Error,
    { attempts: MAX_ID_ATTEMPTS },
  );
}

function withoutToken<T>(doc: T): T {
  const { [INSERT_TOKEN]: _token, ...rest } = doc as Record<string, unknown>;
  return rest as T;
}

/** Whether a failed insert hit a duplicate `_id`, and if so the stored document when it carries this insert's token (a retried write). */
async function duplicateIdHolder<T extends { _id: number }>(err: unknown, model: Model<T>, id: number, token: string): Promise<T | 'another' | 'no'> {
  const e = err as { keyPattern?: Record<string, unknown>; message?: string };
  const onId = e.keyPattern ? Object.keys(e.keyPattern).join() === '_id' : / index: _id_ /.test(e.message ?? '');
  if (!isDuplicateKey(err) || !onId) return 'no';
  const stored = await driverCollection(model).findOne({ _id: id } as never);
  if (!stored) return 'no';
  return (stored as Record<string, unknown>)[INSERT_TOKEN] === token ? withoutToken(stored as T) : 'another';
}
