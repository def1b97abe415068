import { insertTokenField, requiredFields } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface UserDoc {
  /** From the `users` counter; the admin list pages on it. */
  _id: number;
  /** Lower-cased: one account per address whatever its letter case. */
  email: string;
  password_hash: string;
  role: Role;
  created_at: Date;
}

const userSchema = new Schema<UserDoc>(
  { ...requiredFields({ _id: Number, email: String, password_hash: String, role: { type: String, enum: ROLES } }), ...insertTokenField },
  { versionKey: false, timestamps: { createdAt: 'created_at', updatedAt: false } },
);
// Sign-in looks users up by email; unique so that two concurrent sign-ups cannot share one.
userSchema.index({ email: 1 }, { unique: true });

export function userModel(connection: Connection): Model<UserDoc> {
  return connection.models.User ?? connection.model<UserDoc>('User', userSchema, 'users');
}
