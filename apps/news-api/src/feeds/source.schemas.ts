import { z } from '@lib/validation';

export const sourceOutput = z.strictObject({
  id: z.string(),
  name: z.string(),
  feeds: z.array(z.string()),
  domain: z.string().meta({ description: 'The site its articles link to: a value for the domains and excludeDomains filters of GET /news', example: 'abc.net.au' }),
  language: z.string().meta({ description: 'ISO 639-1 code of its articles (the language filter of GET /news)', example: 'en' }),
  status: z.enum(['ok', 'failing', 'never_synced']).meta({ description: 'failing: the latest fetch of a feed failed' }),
  lastSyncAt: z.string().nullable().meta({ description: 'When its feeds were last read, with or without success (the later of lastSuccessAt and lastErrorAt)' }),
  lastSuccessAt: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  lastError: z.string().nullable().meta({ description: 'The feed and the reason, e.g. "https://…/rss.xml: HTTP 503"' }),
  articleCount: z.number().int(),
});

export const sourceReport = z.strictObject({
  id: z.string(),
  name: z.string(),
  entries: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  errors: z.array(z.string()),
});
