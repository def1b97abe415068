import { errorObjectWithStatusBody } from '@lib/errors';
import { buildServiceApp, DEFAULT_FAILED_ATTEMPTS, disregardAccept, failedAttemptLimit, negotiate, type FailedAttemptSettings, type ServiceDeps } from '@lib/http';
import { databaseReady } from '@lib/mongo';
import type { AnyRoute } from '@lib/routing';
import type { RequestHandler } from 'express';
import { accountService } from './accounts/account.service';
import { userRoutes } from './users/user.routes';
import { basicAuth, currentUser } from './auth/basic-auth';
import { bulkRoutes } from './bulk/bulk.routes';
import { bulkService } from './bulk/bulk.service';
import { contactPresenter } from './contacts/contact.presenter';
import { contactRoutes } from './contacts/contact.routes';
import { contactService } from './contacts/contact.service';
import { contactSlots } from './contacts/contact-slots';
import { contactDeletion } from './deletions/contact-deletion';
import { BODY_LIMITS } from './http/body-limits';
import { sendCrmError } from './http/error-body';
import { authBusy, commonErrors, errorOutput, notAcceptable, tooManyFailures } from './http/errors.outputs';
import { crmPager } from './paging';
import { contactLinks } from './contacts/contact-links';
import { eventRoutes } from './events/event.routes';
import { eventService } from './events/event.service';
import { filterRoutes } from './filters/filter.routes';
import { filterService } from './filters/filter.service';
import { noteRoutes } from './notes/note.routes';
import { noteService } from './notes/note.service';
import { crmRepositories } from './repositories';
import { taskPresenter } from './tasks/task.presenter';
import { taskRoutes } from './tasks/task.routes';
import { taskService } from './tasks/task.service';
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
  /** Wrong credentials allowed per email and client address, and per address (default DEFAULT_FAILED_ATTEMPTS: 10 and 100 per 15 minutes). */
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
  const repositories = crmRepositories(connection);
  const accounts = accountService(connection);
  const pager = crmPager(cursorSecret);
  const slots = contactSlots(connection, contactLimit);
  const contacts = contactService({ ...repositories, slots, pager, contactDeleted: contactDeletion(repositories) });
  const presentContact = contactPresenter(accounts);
  const tracks = trackService(repositories.tracks, { defaultMilestones, dealsIn: (account, track, milestones) => repositories.deals(account).countInTrack(track, milestones) });
  const deals = dealService({ ...repositories, tracks, pager });
  const auth = basicAuth(accounts, failedAttemptLimit(connection, 'crm-basic-auth', authLimit));
  const links = contactLinks(repositories.contacts, presentContact);
  const dealsExist = (account: number, ids: number[]) => repositories.deals(account).allExist(ids);
  const notes = noteService(repositories.notes, { pager, links, dealsExist, accounts });
  const tasks = taskService({ ...repositories, pager, links, accounts });
  const events = eventService(repositories.events, { pager, links });
  const presentDeal = dealPresenter(repositories, accounts, presentContact);
  return buildServiceApp({
    logger,
    lifecycle,
    auth: { basic: { before: [auth], security: ['basic'], user: currentUser, responses: { 401: commonErrors[401], 429: tooManyFailures, 503: authBusy } } },
    routes: negotiated([
      ...userRoutes(accounts),
      ...contactRoutes(contacts, accounts, presentContact),
      ...trackRoutes(tracks),
      ...dealRoutes(deals, tracks, contacts, presentDeal),
      ...noteRoutes(notes, contacts),
      ...taskRoutes(tasks, contacts, taskPresenter(accounts, links)),
      ...eventRoutes(events, links),
      ...bulkRoutes(bulkService(contacts, accounts)),
      ...filterRoutes(filterService(repositories, pager), presentContact, presentDeal),
    ]),
    errorFormat: errorObjectWithStatusBody,
    errorSend: sendCrmError,
    isReady: () => databaseReady(connection),
    bodyLimit: BODY_LIMITS.records,
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
