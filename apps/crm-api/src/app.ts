import { errorObjectWithStatusBody } from '@lib/errors';
import { buildServiceApp, DEFAULT_FAILED_ATTEMPTS, failedAttemptLimit, type FailedAttemptSettings, type ServiceDeps } from '@lib/http';
import { databaseReady, timeLimitsOf } from '@lib/mongo';
import { userRoutes } from './users/user.routes';
import { basicAuth, basicScheme } from './auth/basic-auth';
import { bulkRoutes } from './bulk/bulk.routes';
import { bulkService } from './bulk/bulk.service';
import { contactRoutes } from './contacts/contact.routes';
import { contactService } from './contacts/contact.service';
import { contactSlots } from './contacts/contact-slots';
import { BODY_LIMITS } from './http/body-limits';
import { sendCrmError } from './http/error-body';
import { authBusy, commonErrors, errorOutput, notAcceptable, tooManyFailures } from './http/errors.outputs';
import { eventRoutes } from './events/event.routes';
import { eventService } from './events/event.service';
import { filterRoutes } from './filters/filter.routes';
import { filterService } from './filters/filter.service';
import { noteRoutes } from './notes/note.routes';
import { noteService } from './notes/note.service';
import { taskRoutes } from './tasks/task.routes';
import { taskService } from './tasks/task.service';
import { dealRoutes } from './deals/deal.routes';
import { dealService } from './deals/deal.service';
import { DEFAULT_MILESTONES } from './tracks/track.model';
import { trackRoutes } from './tracks/track.routes';
import { trackService } from './tracks/track.service';
import { contactEvents } from './contacts/contact-events';
import { webhookRoutes } from './webhooks/webhook.routes';
import { defaultDeliverySettings } from './webhooks/webhook-config';
import type { DeliverySettings } from './webhooks/webhook-settings';
import { campaignNudge, crmData, crmWebhooks } from './wiring';
import { categoryRoutes } from './categories/category.routes';
import { categoryService } from './categories/category.service';
import { customFieldRoutes } from './custom-fields/custom-field.routes';
import { customFieldService } from './custom-fields/custom-field.service';
import { documentRoutes } from './documents/document.routes';
import { documentService } from './documents/document.service';
import { ticketRoutes } from './tickets/ticket.routes';
import { ticketService } from './tickets/ticket.service';
import { campaignRoutes } from './campaigns/campaign.routes';
import { campaignService } from './campaigns/campaign.service';

export interface CrmAppConfig extends ServiceDeps {
  contactLimit: number;
  cursorSecret: string;
  /** Milestones of each account's Default track (CRM_DEFAULT_MILESTONES). */
  defaultMilestones?: string[];
  /** Wrong credentials allowed per email and client address, and per address (default DEFAULT_FAILED_ATTEMPTS: 10 and 100 per 15 minutes). */
  authLimit?: FailedAttemptSettings;
  /** How webhooks are delivered (config.ts: WEBHOOK_*); by default only to public https receivers. */
  webhooks?: DeliverySettings;
}

export const VERSION = '0.1.0';

/** Builds the CRM service without listening. */
export function createApp({ connection, logger, lifecycle, contactLimit, cursorSecret, defaultMilestones = DEFAULT_MILESTONES, authLimit = DEFAULT_FAILED_ATTEMPTS, webhooks = defaultDeliverySettings() }: CrmAppConfig) {
  const { store, accounts } = crmData(connection, cursorSecret);
  const { recorder, service: webhookManagement } = crmWebhooks(connection, logger, webhooks);
  const contacts = contactService(contactSlots(contactLimit), contactEvents(recorder));
  const tracks = trackService({ defaultMilestones }, recorder);
  const deals = dealService({ tracks, contacts, recorder });
  const auth = basicAuth(accounts, failedAttemptLimit(connection, 'crm-basic-auth', authLimit));
  return buildServiceApp({
    logger,
    lifecycle,
    requestBoundMs: timeLimitsOf(connection).requestBoundMs,
    auth: { basic: basicScheme(auth, store, { 401: commonErrors[401], 429: tooManyFailures, 503: authBusy }) },
    // every route answers JSON or XML per Accept, reads XML bodies too (the Java client sends XML), and refuses (406) an Accept it cannot answer before it runs
    xml: { notAcceptable },
    routes: [
      ...userRoutes(),
      ...contactRoutes(contacts),
      ...trackRoutes(tracks),
      ...dealRoutes(deals),
      ...noteRoutes(noteService(contacts, recorder)),
      ...taskRoutes(taskService(contacts, recorder)),
      ...eventRoutes(eventService(recorder)),
      ...bulkRoutes(bulkService(contacts)),
      ...filterRoutes(filterService(contacts, deals)),
      ...webhookRoutes(webhookManagement),
      ...customFieldRoutes(customFieldService()),
      ...categoryRoutes(categoryService()),
      ...documentRoutes(documentService(recorder)),
      ...ticketRoutes(ticketService(contacts, recorder)),
      ...campaignRoutes(campaignService({ nudge: campaignNudge(connection) })),
    ],
    errorFormat: errorObjectWithStatusBody,
    errorSend: sendCrmError,
    isReady: () => databaseReady(connection),
    bodyLimit: BODY_LIMITS.records,
    openapi: {
      title: 'CRM API',
      errorSchema: errorOutput,
      operationIdPrefix: '/dev/api',
      version: VERSION,
      description: 'Contacts, companies, deals, notes, tasks, events and tracks, documents, help-desk tickets, and webhooks that report their changes. See apps/crm-api/README.md.',
      responseMediaTypes: ['application/json', 'application/xml'],
      securitySchemes: { basic: { type: 'http', scheme: 'basic', description: 'User name: the user email. Password: the user API key.' } },
    },
  });
}
