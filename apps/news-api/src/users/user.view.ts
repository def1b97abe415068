import type { z } from '@lib/validation';
import type { userOutput } from './user.schemas';
import type { UserDoc } from './user.model';

/** The wire shape of a user; never the password hash. */
export const userView = (doc: UserDoc): z.input<typeof userOutput> => ({ id: doc._id, email: doc.email, role: doc.role, createdAt: doc.created_at.toISOString() });
