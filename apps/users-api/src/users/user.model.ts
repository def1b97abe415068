import { insertTokenField, requiredFields } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

export interface UserDoc {
  /** Append order, from the `users` counter; the list pages on it. */
  _id: number;
  name: string;
  age: number;
  city: string;
}

const userSchema = new Schema<UserDoc>(
  { ...requiredFields({ _id: Number, name: String, age: Number, city: String }), ...insertTokenField },
  { versionKey: false },
);

export function userModel(connection: Connection): Model<UserDoc> {
  return connection.models.User ?? connection.model<UserDoc>('User', userSchema, 'users');
}
