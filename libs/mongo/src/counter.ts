import { Schema, type Connection } from 'mongoose';

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
  const counter = await Counter.findOneAndUpdate({ _id: name }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' }).lean();
  if (!counter) throw new Error(`counter ${name} was not returned`);
  return counter.seq;
}
