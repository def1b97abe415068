import { defineRoute, type AnyRoute } from '@lib/routing';
import { z } from '@lib/validation';

/** The release of this service; kept equal to the newest entry of CHANGELOG.md (a test checks). */
export const VERSION = '1.2.0';

export const VERSION_HEADER = 'X-API-Version';

export const versionRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/version',
    auth: 'public',
    summary: 'The running release (also sent as the X-API-Version header of every response)',
    tags: ['meta'],
    responses: { 200: { description: 'Service name and version', schema: z.strictObject({ name: z.string(), version: z.string() }) } },
    handler: () => ({ status: 200, body: { name: 'news-api', version: VERSION } }),
  }),
];
