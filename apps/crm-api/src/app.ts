import { buildServiceApp, DEFAULT_FAILED_ATTEMPTS, disregardAccept, failedAttemptLimit, negotiate, type FailedAttemptSettings, type ServiceDeps } from '@lib/http';
import { databaseReady } from '@lib/mongo';
import type { AnyRoute } from '@lib/routing';
import type { RequestHandler } from 'express';
import { accountService } from './accounts/account.service';
import { userRoutes } from './accounts/user.routes';
import { basicAuth, currentUser } from './auth/basic-auth';
import { bulkRoutes } from './bulk/bulk.routes';
import { bulkService } from './bulk/bulk.service';
import { contactPresenter } from './contacts/contact.presenter';
import { contactRoutes } from './contacts/contact.routes';
import { contactService } from './contacts/contact.service';
import { crmErrorBody, sendCrmError } from './error-body';
import { commonErrors, errorOutput, notAcceptable, tooManyFailures } from './errors.outputs';
import { crmPager } from './paging';
import { contactLinks } from './contact-links';
import { eventRoutes } from './events/event.routes';
import { eventService } from './events/event.service';
import { filterRoutes } from './filters/filter.routes';
import { filterService } from './filters/filter.service';
import { noteRoutes } from './notes/note.routes';
import { noteService, type DealsExist } from './notes/note.service';
import { taskPresenter } from './tasks/task.presenter';
import { taskRoutes } from './tasks/task.routes';
import { taskService } from './tasks/task.service';
import { dealModel } from './deals/deal.model';
import { dealPresenter } from './deals/deal.presenter';
import { dealRoutes } from './deals/deal.routes';
import { dealService } from './deals/deal.service';
import { DEFAULT_MILESTONES } from './tracks/track.model';
import { trackRoutes } from './tracks/track.routes';
import { trackService } from './tracks/track.service';

export interface CrmAppConfig extends ServiceDeps {
  contactLimit: number;
  cursorSecret: string;
  /** Milestones of each account's Default track (CRM_DEFAULT_MILESTONES). */
  defaultMilestones?: string[];
  /** Wrong credentials allowed per client address (default DEFAULT_FAILED_ATTEMPTS: 10 per 15 minutes). */
  authLimit?: FailedAttemptSettings;
}

export const VERSION = '0.1.0';

/**
 * 406 before the handler runs, not when it answers: a write (or the Default track made on first
 * use) must not happen for a request whose answer the caller refuses.
 */
const acceptable: RequestHandler = (req, _res, next) => {
  negotiate(req);
  next();
};

/** Deletes, and routes whose every success is a 204: their answer does not depend on Accept. */
const bodiless = (route: AnyRoute) =>
  route.method === 'delete' || Object.keys(route.responses).every((status) => !status.startsWith('2') || status === '204');

/** Every body a route takes as JSON it also takes as XML (`application/xml`, `text/xml`): the Java client sends XML. */
function withXml(request: AnyRoute['request']): AnyRoute['request'] {
  if (!request?.body) return request;
  const types = request.bodyTypes ?? ['json'];
  return types.includes('json') ? { ...request, bodyTypes: [...types, 'xml'] } : request;
}

/** Every /dev/api route reads XML bodies too, and refuses (406) an Accept it cannot answer before it runs. */
const negotiated = (routes: AnyRoute[]): AnyRoute[] =>
  routes.map((route) => ({
    ...route,
    request: withXml(route.request),
    before: [bodiless(route) ? disregardAccept : acceptable, ...(route.before ?? [])],
    responses: bodiless(route) ? route.responses : { 406: notAcceptable, ...route.responses },
  }));

/** Builds the CRM service without listening. */
export function createApp({ connection, logger, lifecycle, contactLimit, cursorSecret, defaultMilestones = DEFAULT_MILESTONES, authLimit = DEFAULT_FAILED_ATTEMPTS }: CrmAppConfig) {
  const accounts = accountService(connection);
  const pager = crmPager(cursorSecret);
  const contacts = contactService(connection, { contactLimit, pager });
  const presentContact = contactPresenter(accounts);
  const tracks = trackService(connection, { defaultMilestones });
  const deals = dealService(connection, { tracks, pager });
  const auth = basicAuth(accounts, failedAttemptLimit(connection, 'crm-basic-auth', authLimit));
  const links = contactLinks(connection, presentContact);
  const dealsExist: DealsExist = async (account, ids) => (await dealModel(connection).countDocuments({ account, _id: { $in: ids } })) === ids.length;
  const notes = noteService(connection, { pager, links, dealsExist, accounts });
  const tasks = taskService(connection, { pager, links, accounts });
  const events = eventService(connection, { pager, links });
  const presentDeal = dealPresenter(connection, accounts, presentContact);
  return buildServiceApp({
    logger,
    lifecycle,
    auth: { basic: { before: [auth], security: ['basic'], user: currentUser, responses: { 401: commonErrors[401], 429: tooManyFailures } } },
    routes: negotiated([
      ...userRoutes(accounts),
      ...contactRoutes(contacts, accounts, presentContact),
      ...trackRoutes(tracks),
      ...dealRoutes(deals, tracks, contacts, presentDeal),
      ...noteRoutes(notes, contacts),
      ...taskRoutes(tasks, contacts, taskPresenter(accounts, links)),
      ...eventRoutes(events, links),
      ...bulkRoutes(bulkService(contacts, accounts)),
      ...filterRoutes(filterService(connection, pager), presentContact, presentDeal),
    ]),
    errorFormat: crmErrorBody,
    errorSend: sendCrmError,
    isReady: () => databaseReady(connection),
    bodyLimit: '1mb',
    openapi: {
      title: 'CRM API',
      errorSchema: errorOutput,
      operationIdPrefix: '/dev/api',
      version: VERSION,
      description: 'Contacts, companies, deals, notes, tasks, events and tracks. See apps/crm-api/README.md.',
      responseMediaTypes: ['application/json', 'application/xml'],
      securitySchemes: { basic: { type: 'http', scheme: 'basic', description: 'User name: the user email. Password: the user API key.' } },
    },
  });
}
