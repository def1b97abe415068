import type { Page } from '@lib/paging';
import type { z } from '@lib/validation';
import type { listBody, userOutput } from './user.schemas';
import type { UserDoc } from './user.model';

/** The wire shape of a user record: exactly the spec's three fields. */
export const userView = (doc: UserDoc): z.input<typeof userOutput> => ({ name: doc.name, age: doc.age, city: doc.city });

/** The list envelope: the page, whether more follow, and the cursor of the next page. */
export const userPageView = (page: Page<UserDoc>): z.input<typeof listBody> => ({
  data: page.items.map(userView),
  has_more: page.next !== undefined,
  ...(page.next !== undefined && { next_cursor: page.next }),
});
