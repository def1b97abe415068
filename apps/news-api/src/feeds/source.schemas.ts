import { z } from '@lib/validation';

export const sourceOutput = z.object({
  id: z.string(),
  name: z.string(),
  feeds: z.array(z.string()),
  status: z.enum(['ok', 'failing', 'never_synced']).meta({ description: 'failing: the latest fetch of a feed failed' }),
  lastSuccessAt: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  lastError: z.string().nullable().meta({ description: 'The feed and the reason, e.g. "https://…/rss.xml: HTTP 503"' }),
  articleCount: z.number().int(),
});

export const sourceReport = z.object({
  id: z.string(),
  name: z.string(),
  entries: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  errors: z.array(z.string()),
});
