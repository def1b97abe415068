import { Schema, type Connection, type Model } from 'mongoose';

interface CounterDoc {
  _id: string;
  seq: number;
}

const counterSchema = new Schema<CounterDoc>({ _id: String, seq: { type: Number, required: true } }, { versionKey: false });

/**
 * The next integer of a named sequence, from one atomic `$inc` on the `counters` collection:
 * concurrent callers never get the same number.
 */
export async function nextSequence(connection: Connection, name: string): Promise<number> {
  const Counter = connection.models.Counter ?? connection.model<CounterDoc>('Counter', counterSchema, 'counters');
  const increment = () => Counter.findOneAndUpdate({ _id: name }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' }).lean();
  let counter;
  try {
    counter = await increment();
  } catch (err) {
    // Two first calls can both try to insert the missing counter; the loser gets a duplicate key
    // error, and by then the counter exists, so the retry is a plain $inc.
    if ((err as { code?: number }).code !== 11000) throw err;
    counter = await increment();
  }
  if (!counter) throw new Error(`counter ${name} was not returned`);
  return counter.seq;
}

/**
 * Inserts a document whose `_id` came from nextSequence. When the reply to the insert is lost
 * (connection reset) the driver retries it; a server that does not deduplicate retried writes
 * (the embedded one) then reports a duplicate `_id`. Only this request holds that id, so the
 * stored document is this request's own write: answer with it instead of failing. A duplicate
 * `_id` held by a different document is retried under a fresh id when `renumber` is given.
 */
export async function createWithSequenceId<T extends { _id: number }>(model: Model<T>, doc: T, renumber?: () => Promise<number>): Promise<T> {
  try {
    return (await model.create(doc)).toObject() as T;
  } catch (err) {
    const taken = await duplicateIdHolder(err, model, doc);
    if (taken === 'ours') return (await model.findById(doc._id).lean<T>()) as T;
    // Another document holds the id: the counter handed it out twice (the embedded server's $inc
    // is not always atomic under load; MongoDB's is). With `renumber`, take a fresh id and retry.
    if (taken === 'another' && renumber) return createWithSequenceId(model, { ...doc, _id: await renumber() }, renumber);
    throw err;
  }
}

/** Whether a failed insert hit a duplicate `_id` held by this very document (a retried write) or another one. */
async function duplicateIdHolder<T extends { _id: number }>(err: unknown, model: Model<T>, doc: T): Promise<'ours' | 'another' | 'no'> {
  const e = err as { code?: number; keyPattern?: Record<string, unknown>; message?: string };
  const onId = e.keyPattern ? Object.keys(e.keyPattern).join() === '_id' : / index: _id_ /.test(e.message ?? '');
  if (e.code !== 11000 || !onId) return 'no';
  const stored = await model.findById(doc._id).lean<T>();
  if (!stored) return 'no';
  const ours = Object.entries(doc).every(([key, value]) => canonical((stored as Record<string, unknown>)[key]) === canonical(value));
  return ours ? 'ours' : 'another';
}

/** JSON with object keys sorted, so that stored and sent documents compare regardless of key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}
