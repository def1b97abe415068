import type { z } from '@lib/validation';
import type { userOutput } from './user.schemas';
import type { UserDoc } from './user.model';

/** The wire shape of a user record: exactly the spec's three fields. */
export const userView = (doc: UserDoc): z.input<typeof userOutput> => ({ name: doc.name, age: doc.age, city: doc.city });
