import type { AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { accessTokenField } from '../auth/access-token';
import { z } from '@lib/validation';
import { errorResponse } from '../error-schema';
import type { FeedSync } from './feed-sync';
import { sourceOutput, sourceReport } from './source.schemas';
import type { SourceService } from './source.service';
import { sourceView } from './source.view';

export function sourceRoutes(sources: SourceService, options: { sync: FeedSync }): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/sources',
      auth: 'bearer',
      summary: 'The configured publishers, their feeds and how their last fetches went',
      tags: ['news'],
      request: { query: z.strictObject({ ...accessTokenField }) },
      responses: { 200: { description: 'Every publisher', schema: z.strictObject({ data: z.array(sourceOutput) }) }, 401: errorResponse('Not signed in') },
      handler: async () => ({ status: 200, body: { data: (await sources.list()).map(sourceView) } }),
    }),
    defineRoute({
      method: 'post',
      path: '/news/sync',
      auth: 'admin-or-master-key',
      summary: 'Fetch every feed now (admins, or the master key); answers when done',
      description:
        'One publisher failing never stops the others; its error is in the report and in GET /sources. One sync runs at a time in the whole cluster: a call while a sync runs (on any replica) waits for it and answers its report.',
      tags: ['news'],
      request: { body: z.strictObject({ ...accessTokenField }), bodyTypes: ['form', 'json'] },
      responses: {
        200: { description: 'What each publisher gave', schema: z.strictObject({ startedAt: z.string(), finishedAt: z.string(), sources: z.array(sourceReport) }) },
        401: errorResponse('Neither an admin token nor the master key'),
        403: errorResponse('Signed in without the admin role'),
        503: errorResponse('The sync was stopped before its end (its replica is shutting down): call again (Retry-After)'),
      },
      handler: async () => ({ status: 200, body: await options.sync.run() }),
    }),
  ];
}
