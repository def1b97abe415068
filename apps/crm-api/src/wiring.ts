import { randomBytes } from 'node:crypto';
import type { Logger } from '@lib/http';
import type { Connection } from 'mongoose';
import { accountService } from './accounts/account.service';
import { userRemoval } from './deletions/user-removal';
import { crmPager } from './paging';
import { crmStore } from './store/crm-store';
import { crossTenant } from './store/cross-tenant';
import { crossTenantWebhooks } from './store/cross-tenant-webhooks';
import type { DeliverySettings } from './webhooks/webhook-settings';
import { createWebhooks, type CrmWebhooks } from './webhooks/webhooks';

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

const webhooksByConnection = new WeakMap<Connection, CrmWebhooks>();

/**
 * The webhooks of the connection's database, built on first use with these settings: the app
 * (recording, the management routes) and the process (the delivery worker) share one set, so a
 * commit wakes the worker of its own process.
 */
export function crmWebhooks(connection: Connection, logger: Logger, settings: DeliverySettings): CrmWebhooks {
  let made = webhooksByConnection.get(connection);
  if (!made) webhooksByConnection.set(connection, (made = createWebhooks(crossTenantWebhooks(connection), logger, settings)));
  return made;
}

/** A new set of webhooks on the connection (tests: several "replicas" in one process). */
export const newCrmWebhooks = (connection: Connection, logger: Logger, settings: DeliverySettings): CrmWebhooks => createWebhooks(crossTenantWebhooks(connection), logger, settings);
