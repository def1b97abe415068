import { randomBytes } from 'node:crypto';
import type { Logger } from '@lib/http';
import type { Connection } from 'mongoose';
import { accountService } from './accounts/account.service';
import { userRemoval } from './deletions/user-removal';
import { crmPager } from './paging';
import { crmStore } from './store/crm-store';
import { crossTenant } from './store/cross-tenant';
import { crossTenantWebhooks } from './store/cross-tenant-webhooks';
import { crossTenantCampaigns } from './store/cross-tenant-campaigns';
import { campaignSteps } from './campaigns/campaign-steps';
import { campaignWorker, type CampaignWorker } from './campaigns/campaign-worker';
import { campaignBacklogGauge } from './campaigns/campaign-metrics';
import type { CampaignSettings } from './campaigns/campaign-settings';
import { contactEvents } from './contacts/contact-events';
import { contactService } from './contacts/contact.service';
import { contactSlots } from './contacts/contact-slots';
import { taskService } from './tasks/task.service';
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

/** What the campaign worker is built with. */
export interface CampaignWorkerOptions {
  webhooks: DeliverySettings;
  campaigns: CampaignSettings;
  contactLimit: number;
}

const campaignsByConnection = new WeakMap<Connection, CampaignWorker>();

/** Most due enrolments the backlog metric counts (a bounded index scan per scrape). */
const BACKLOG_COUNT_LIMIT = 1_000_000;

/**
 * A new campaign worker on the connection (tests: several "replicas" in one process). Its steps go
 * through the contact and task use cases with the webhooks' recorder, so they record their webhook
 * events as requests do; a WEBHOOK step wakes the delivery worker of `webhooks`.
 */
export function newCampaignWorker(connection: Connection, logger: Logger, options: CampaignWorkerOptions, webhooks: CrmWebhooks = crmWebhooks(connection, logger, options.webhooks)): CampaignWorker {
  const { store } = crmData(connection);
  const contacts = contactService(contactSlots(options.contactLimit), contactEvents(webhooks.recorder));
  const steps = campaignSteps({ contacts, tasks: taskService(contacts, webhooks.recorder), delivered: webhooks.delivered });
  const tenants = crossTenantCampaigns(connection, store);
  campaignBacklogGauge(() => tenants.backlog(BACKLOG_COUNT_LIMIT));
  return campaignWorker({ tenants, steps, settings: options.campaigns, logger });
}

/** The campaign worker of the process on the connection's database (made once; started and stopped by service.ts). */
export function crmCampaigns(connection: Connection, logger: Logger, options: CampaignWorkerOptions): CampaignWorker {
  let made = campaignsByConnection.get(connection);
  if (!made) campaignsByConnection.set(connection, (made = newCampaignWorker(connection, logger, options)));
  return made;
}

/** Wakes the campaign worker of this process on the connection, if there is one (an enrolment due now). */
export const campaignNudge = (connection: Connection) => () => campaignsByConnection.get(connection)?.nudge();
