import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { driverCollection } from './driver-collection';

interface CounterDoc {
  _id: string;
  seq: number;
}

const counterSchema = new Schema<CounterDoc>({ _id: String, seq: { type: Number, required: true } }, { versionKey: false });

const counters = (connection: Connection) =>
  driverCollection<CounterDoc>(connection.models.Counter ?? connection.model<CounterDoc>('Counter', counterSchema, 'counters'));

/** MongoDB's duplicate-key error (E11000), from an insert or an upsert. */
export const isDuplicateKey = (err: unknown) => (err as { code?: number }).code === 11000;

/** How many ids one insert may try before it gives up (each retry first moves the counter past the stored ids). */
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

/** Adds `by` to the sequence in one atomic `$inc` and returns its new value. */
async function increment(connection: Connection, name: string, by: number): Promise<number> {
  const counter = await upsertCounter(() =>
    counters(connection).findOneAndUpdate({ _id: name }, { $inc: { seq: by } }, { upsert: true, returnDocument: 'after' }),
  );
  if (!counter) throw new Error(`counter ${name} was not returned`);
  return counter.seq;
}

/**
 * The next integer of a named sequence, from one atomic `$inc` on the `counters` collection:
 * concurrent callers never get the same number.
 */
export function nextSequence(connection: Connection, name: string): Promise<number> {
  return increment(connection, name, 1);
}

/** Ids of one sequence, and the way to move it past ids already stored. */
export interface IdSequence {
  next(): Promise<number>;
  /** Moves the sequence so that every later id is above `id`, dropping ids this process holds. */
  skipPast(id: number): Promise<void>;
}

/** Blocks of ids this process reserved and has not handed out yet, per connection and sequence. */
interface HeldIds {
  next: number;
  end: number;
  refill?: Promise<void>;
}
const heldIds = new WeakMap<Connection, Map<string, HeldIds>>();

function heldFor(connection: Connection, name: string): HeldIds {
  let byName = heldIds.get(connection);
  if (!byName) heldIds.set(connection, (byName = new Map()));
  let held = byName.get(name);
  if (!held) byName.set(name, (held = { next: 1, end: 0 }));
  return held;
}

async function takeHeld(connection: Connection, name: string, block: number): Promise<number> {
  for (;;) {
    const held = heldFor(connection, name);
    if (held.next <= held.end) return held.next++;
    // one reservation at a time; callers that find the block empty meanwhile wait for it
    held.refill ??= increment(connection, name, block)
      .then((seq) => {
        held.next = seq - block + 1;
        held.end = seq;
      })
      .finally(() => (held.refill = undefined));
    await held.refill;
  }
}

/** Drops every id block held for this connection (the test helper calls it when it empties the database). */
export function forgetHeldIds(connection: Connection): void {
  heldIds.delete(connection);
}

/**
 * A named sequence of integer ids. `offset` is added to each (ids of a sequence that must skip
 * small numbers). With `block` > 1, one `$inc` reserves that many ids for this process, handed out
 * in order without asking the database again: ids stay unique across processes, but a process
 * that stops loses the rest of its block (gaps), and two processes hand out interleaved ranges.
 */
export function idSequence(connection: Connection, name: string, options: { offset?: number; block?: number } = {}): IdSequence {
  const { offset = 0, block = 1 } = options;
  return {
    next: async () => (block > 1 ? await takeHeld(connection, name, block) : await increment(connection, name, 1)) + offset,
    async skipPast(id) {
      heldIds.get(connection)?.delete(name);
      const seq = id - offset;
      try {
        // raised only if below (a missing counter is made); a counter already past it makes the upsert a duplicate key: nothing to do
        await counters(connection).updateOne({ _id: name, seq: { $lt: seq } }, { $set: { seq } }, { upsert: true });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    },
  };
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
 * A duplicate `_id` held by a document with another token (or none) means the counter is behind the
 * stored ids (a restored backup, a reset counter): the sequence is moved past the highest stored
 * `_id`, `abandon` undoes the attempt, and the document is built again under a fresh id (at most
 * MAX_ID_ATTEMPTS ids in all).
 * A document with equal content is someone else's: two identical requests make two records.
 *
 * A duplicate `_id` held by a document with this insert's token means the reply to the insert was
 * lost and the driver retried it (a server that does not deduplicate retried writes, like the
 * embedded one, then reports the duplicate): that is this insert's own write, so it is the answer.
 */
export async function insertWithSequenceId<T extends { _id: number }>(
  model: Model<T>,
  ids: IdSequence,
  build: (id: number) => T | Promise<T>,
  options: SequenceInsertOptions<T> = {},
): Promise<T> {
  if (!model.schema.path(INSERT_TOKEN)) throw new Error(`the schema of ${model.modelName} must declare insertTokenField`);
  const insert = options.insert ?? (async (doc: WithToken<T>) => (await model.create(doc)).toObject() as T);
  for (let attempt = 1; ; attempt++) {
    const doc = await build(await ids.next());
    const token = randomBytes(12).toString('base64url');
    try {
      return withoutToken(await insert({ ...doc, [INSERT_TOKEN]: token }));
    } catch (err) {
      const holder = await duplicateIdHolder(err, model, doc._id, token);
      if (holder === 'no') throw err;
      if (holder !== 'another') return holder;
      await options.abandon?.(doc);
      if (attempt >= MAX_ID_ATTEMPTS) throw err;
      const highest = await model.findOne({}, { _id: 1 }).sort({ _id: -1 }).lean<{ _id: number }>();
      await ids.skipPast(highest?._id ?? doc._id);
    }
  }
}

function withoutToken<T>(doc: T): T {
  const { [INSERT_TOKEN]: _token, ...rest } = doc as Record<string, unknown>;
  return rest as T;
}

/** Whether a failed insert hit a duplicate `_id`, and if so the stored document when it carries this insert's token (a retried write). */
async function duplicateIdHolder<T extends { _id: number }>(err: unknown, model: Model<T>, id: number, token: string): Promise<T | 'another' | 'no'> {
  const e = err as { code?: number; keyPattern?: Record<string, unknown>; message?: string };
  const onId = e.keyPattern ? Object.keys(e.keyPattern).join() === '_id' : / index: _id_ /.test(e.message ?? '');
  if (e.code !== 11000 || !onId) return 'no';
  const stored = await driverCollection(model).findOne({ _id: id } as never);
  if (!stored) return 'no';
  return (stored as Record<string, unknown>)[INSERT_TOKEN] === token ? withoutToken(stored as T) : 'another';
}
