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
  return buildServiceApp({
    logger,
    lifecycle,
    routes: protect(auth, [...userRoutes(accounts), ...contactRoutes(contacts, accounts, contactPresenter(accounts))]),
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
