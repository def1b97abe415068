import type { AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { z } from '@lib/validation';
import type { Connection } from 'mongoose';
import { accessTokenField } from '../auth/access-token';
import { errorBody } from '../error-schema';
import type { FeedSync } from './feed-sync';
import type { Publisher } from './feeds-config';
import { sourceModel, type SourceDoc } from './source.model';

const iso = (date?: Date) => date?.toISOString() ?? null;

function sourceView(publisher: Publisher, doc: SourceDoc | undefined) {
  const failing = doc?.last_error_at && (!doc.last_success_at || doc.last_error_at > doc.last_success_at);
  return {
    id: publisher.id,
    name: publisher.name,
    feeds: publisher.feeds,
    status: !doc ? 'never_synced' : failing ? 'failing' : 'ok',
    lastSuccessAt: iso(doc?.last_success_at),
    lastErrorAt: iso(doc?.last_error_at),
    lastError: doc?.last_error ?? null,
    articleCount: doc?.article_count ?? 0,
  };
}

const sourceOutput = z.object({
  id: z.string(),
  name: z.string(),
  feeds: z.array(z.string()),
  status: z.enum(['ok', 'failing', 'never_synced']).meta({ description: 'failing: the latest fetch of a feed failed' }),
  lastSuccessAt: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  lastError: z.string().nullable().meta({ description: 'The feed and the reason, e.g. "https://…/rss.xml: HTTP 503"' }),
  articleCount: z.number().int(),
});

const sourceReport = z.object({
  id: z.string(),
  name: z.string(),
  entries: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  errors: z.array(z.string()),
});

export function sourceRoutes(options: { connection: Connection; sync: FeedSync }): AnyRoute[] {
  const Source = sourceModel(options.connection);
  return [
    defineRoute({
      method: 'get',
      path: '/sources',
      auth: 'bearer',
      summary: 'The configured publishers, their feeds and how their last fetches went',
      tags: ['news'],
      request: { query: z.strictObject({ ...accessTokenField }) },
      responses: { 200: { description: 'Every publisher', schema: z.object({ data: z.array(sourceOutput) }) }, 401: { description: 'Not signed in', schema: errorBody } },
      handler: async (_ctx, res) => {
        const docs = new Map((await Source.find().lean<SourceDoc[]>()).map((d) => [d._id, d]));
        res.json({ data: options.sync.publishers.map((p) => sourceView(p, docs.get(p.id))) });
      },
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
        200: { description: 'What each publisher gave', schema: z.object({ startedAt: z.string(), finishedAt: z.string(), sources: z.array(sourceReport) }) },
        401: { description: 'Neither an admin token nor the master key', schema: errorBody },
        403: { description: 'Signed in without the admin role', schema: errorBody },
        503: { description: 'The sync was stopped before its end (its replica is shutting down): call again (Retry-After)', schema: errorBody },
      },
      handler: async (_ctx, res) => res.json(await options.sync.run()),
    }),
  ];
}
