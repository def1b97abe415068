import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { accountService } from './accounts/account.service';
import { userRemoval } from './deletions/user-removal';
import { crmPager } from './paging';
import { crmStore } from './store/crm-store';
import { crossTenant } from './store/cross-tenant';

/**
 * Where the connection stops: the account-bound stores of its database, the cross-tenant module, and
 * the account admin built on them. The app, the start-up (the owner), the admin commands and tests
 * build on this; nothing past it sees the connection. `cursorSecret` signs the lists' cursors: the
 * admin commands read no list, so theirs is any.
 */
export function crmData(connection: Connection, cursorSecret = randomBytes(32).toString('hex')) {
  const store = crmStore(connection, crmPager(cursorSecret));
  const tenants = crossTenant(connection, store);
  return { store, accounts: accountService(tenants), users: userRemoval(tenants) };
}
