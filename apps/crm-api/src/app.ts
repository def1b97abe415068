import { buildServiceApp, type ServiceDeps } from '@lib/http';
import { databaseReady } from '@lib/mongo';
import type { AnyRoute } from '@lib/validation';
import type { RequestHandler } from 'express';
import { accountService } from './accounts/account.service';
import { userRoutes } from './accounts/user.routes';
import { basicAuth } from './auth/basic-auth';
import { contactPresenter } from './contacts/contact.presenter';
import { contactRoutes } from './contacts/contact.routes';
import { contactService } from './contacts/contact.service';
import { crmErrorBody, sendCrmError } from './error-body';
import { crmPager } from './paging';
import { contactLinks } from './contact-links';
import { eventRoutes } from './events/event.routes';
import { eventService } from './events/event.service';
import { keysetPager } from './keyset-pager';
import { noteRoutes } from './notes/note.routes';
import { noteService, type DealsExist } from './notes/note.service';
import { taskPresenter } from './tasks/task.presenter';
import { taskRoutes } from './tasks/task.routes';
import { taskService } from './tasks/task.service';

export interface CrmAppConfig extends ServiceDeps {
  contactLimit: number;
  cursorSecret: string;
}

export const VERSION = '0.1.0';

/** Every /dev/api route needs HTTP Basic credentials; the OpenAPI document says so per route. */
const protect = (auth: RequestHandler, routes: AnyRoute[]): AnyRoute[] =>
  routes.map((route) => ({ ...route, before: [auth, ...(route.before ?? [])], security: ['basic'] }));

/** Builds the CRM service without listening. */
export function createApp({ connection, logger, lifecycle, contactLimit, cursorSecret }: CrmAppConfig) {
  const accounts = accountService(connection);
  const contacts = contactService(connection, { contactLimit, pager: crmPager(cursorSecret) });
  const auth = basicAuth(accounts);
  const links = contactLinks(connection, contactPresenter(accounts));
  const activityPager = keysetPager(cursorSecret);
  // Deals live in the `deals` collection as { _id, account, … }; this check is all notes need of them.
  const dealsExist: DealsExist = async (account, ids) =>
    (await connection.collection<{ _id: number; account: number }>('deals').countDocuments({ account, _id: { $in: ids } })) === ids.length;
  const notes = noteService(connection, { pager: activityPager, links, dealsExist });
  const tasks = taskService(connection, { pager: activityPager, links, accounts });
  const events = eventService(connection, { pager: activityPager, links });
  return buildServiceApp({
    logger,
    lifecycle,
    routes: protect(auth, [
      ...userRoutes(accounts),
      ...contactRoutes(contacts, accounts, contactPresenter(accounts)),
      ...noteRoutes(notes, contacts),
      ...taskRoutes(tasks, contacts, taskPresenter(accounts, links)),
      ...eventRoutes(events, links),
    ]),
    errorFormat: crmErrorBody,
    errorSend: sendCrmError,
    isReady: () => databaseReady(connection),
    bodyLimit: '1mb',
    openapi: {
      title: 'CRM API',
      version: VERSION,
      description: 'Contacts, companies, deals, notes, tasks, events and tracks. See apps/crm-api/README.md.',
      responseMediaTypes: ['application/json', 'application/xml'],
      securitySchemes: { basic: { type: 'http', scheme: 'basic', description: 'User name: the user email. Password: the user API key.' } },
    },
  });
}
