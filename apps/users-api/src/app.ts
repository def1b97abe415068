import { errorObjectBody } from '@lib/errors';
import { buildServiceApp, requireApiKey, type ServiceDeps } from '@lib/http';
import { databaseReady, timeLimitsOf } from '@lib/mongo';
import { keysetPager } from '@lib/paging';
import { userRoutes } from './users/user.routes';
import { errorBody } from './users/user.schemas';
import { userRepository } from './users/user.repository';
import { userService } from './users/user.service';

export interface UsersAppConfig extends ServiceDeps {
  cursorSecret: string;
  /** When set, POST /users needs it as X-API-Key or Authorization: Bearer. */
  apiKey?: string;
}

export const VERSION = '0.1.0';

/** Builds the users service without listening. */
export function createApp({ connection, logger, lifecycle, apiKey, cursorSecret }: UsersAppConfig) {
  return buildServiceApp({
    logger,
    lifecycle,
    requestBoundMs: timeLimitsOf(connection).requestBoundMs,
    auth: { apiKey: { before: [requireApiKey(apiKey)], security: ['apiKey'] } },
    routes: userRoutes(userService(userRepository(connection, keysetPager(cursorSecret)))),
    errorFormat: errorObjectBody,
    isReady: () => databaseReady(connection),
    openapi: {
      title: 'Users API',
      errorSchema: errorBody,
      version: VERSION,
      description: 'List and add user records. See apps/users-api/README.md.',
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    },
  });
}
