/**
 * The benchmark's table: one row per hot endpoint, each with the request to our service and the
 * request to the baseline (a bare Express handler doing the same database work with the plain
 * driver). Adding an endpoint is adding a row here (and its handler in baseline.ts).
 */
export type AppName = 'crm-api' | 'articles-api' | 'news-api' | 'users-api';
/** A process a row drives: an app, or news-api's second process for the search rows (its own database, NEWS_SEARCH_DB). */
export type ProcessName = AppName | 'news-search';
/** The database of the search rows' news-api process: its 20,000 articles slow the embedded server down, so they stay out of the other rows' way. */
export const NEWS_SEARCH_DB = 'news_search';

export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** A new body per request (writes need distinct values). */
  body?: (n: number) => string;
  /** Called with each answer (the webhook row records when each write was acknowledged). */
  onResponse?: (status: number, body: string) => void;
}

export interface Endpoint {
  name: string;
  app: ProcessName;
  ours: BenchRequest;
  baseline: BenchRequest;
  /** Concurrent connections for this row, when not the run's. */
  connections?: number;
  /** The row's CPU ratio target, when not the bench's (report.ts TARGETS). */
  cpuRatioTarget?: number;
  /**
   * The same request to the same app for an account without a webhook: the webhook row measures
   * it too (its CPU per request against the row's), and its own figures (webhooks.ts).
   */
  withoutWebhook?: BenchRequest;
}

/** A row of one of the four apps. */
export type AppEndpoint = Endpoint & { app: AppName };
/** The rows of the four apps (what ab.ts and profile.ts drive: they start no search process). */
export const appRows = (rows: Endpoint[]): AppEndpoint[] => rows.filter((row): row is AppEndpoint => row.app !== 'news-search');

/** What the seed stored, for the rows to point at. */
export interface Seeded {
  crmAuth: string;
  contactId: number;
  contactEmail: string;
  /** A track holding the seeded deals (D9 by its id). */
  trackId: number;
  /** `Bearer <JWT>` of a news-api user. */
  newsAuth: string;
  /** An API key of that user (X-Api-Key). */
  newsKey: string;
  /** The same on the search process, when it runs (main.ts starts it; ab.ts and profile.ts do not). */
  newsSearchAuth?: string;
  /**
   * Two crm accounts of their own for the webhook row, when it runs (main.ts makes them; ab.ts and
   * profile.ts do not): `hooked` has one webhook on `contact.*` to the bench's receiver, `plain` none.
   */
  crmWebhook?: { hooked: string; plain: string; onResponse?: (status: number, body: string) => void };
}

/**
 * news-api's API key limits out of the way: the keyed row measures what counting a request costs
 * (one update of the key's day in the database), not a stream of 429s.
 */
export const NEWS_KEY_LIMITS_OFF = { NEWS_KEY_DAILY_QUOTA: '999999999', NEWS_KEY_BURST: '999999999' };

const JSON_ACCEPT = { Accept: 'application/json' };
/**
 * The search row's query: about a third of the corpus matches (seed.ts, news-corpus.ts), so the
 * ranking reads a whole window of the newest 1,000 matches.
 */
export const RELEVANCY_QUERY = '("iron ore" OR lithium OR gold) -copper';
const newPerson = (n: number) =>
  JSON.stringify({
    properties: [
      { type: 'SYSTEM', name: 'first_name', value: `Bench${n}` },
      { type: 'SYSTEM', name: 'email', subtype: 'work', value: `bench-${process.pid}-${n}@bench.test` },
    ],
  });

/** The webhook row's name (main.ts makes its accounts and receiver only when a row selected has `withoutWebhook`). */
export const WEBHOOK_ROW = 'crm POST contact with one webhook';

export function endpoints(seed: Seeded): Endpoint[] {
  const crm = { Authorization: seed.crmAuth };
  return [
    {
      name: 'crm GET contact by id',
      app: 'crm-api',
      ours: { method: 'GET', path: `/dev/api/contacts/${seed.contactId}`, headers: { ...crm, ...JSON_ACCEPT } },
      baseline: { method: 'GET', path: `/crm/contacts/${seed.contactId}` },
    },
    {
      name: 'crm GET contact page (JSON)',
      app: 'crm-api',
      ours: { method: 'GET', path: '/dev/api/contacts?page_size=20', headers: { ...crm, ...JSON_ACCEPT } },
      baseline: { method: 'GET', path: '/crm/contacts?page_size=20' },
    },
    {
      name: 'crm GET contact page (XML)',
      app: 'crm-api',
      ours: { method: 'GET', path: '/dev/api/contacts?page_size=20', headers: { ...crm, Accept: 'application/xml' } },
      baseline: { method: 'GET', path: '/crm/contacts?page_size=20' },
    },
    {
      name: 'crm POST contact',
      app: 'crm-api',
      ours: { method: 'POST', path: '/dev/api/contacts', headers: { ...crm, ...JSON_ACCEPT, 'Content-Type': 'application/json' }, body: newPerson },
      baseline: { method: 'POST', path: '/crm/contacts', headers: { 'Content-Type': 'application/json' }, body: newPerson },
      // issue 27: its guarantees take more database commands than the baseline's two
      cpuRatioTarget: 1.6,
    },
    ...(seed.crmWebhook !== undefined
      ? [
          {
            name: WEBHOOK_ROW,
            app: 'crm-api' as const,
            ours: { method: 'POST' as const, path: '/dev/api/contacts', headers: { Authorization: seed.crmWebhook.hooked, ...JSON_ACCEPT, 'Content-Type': 'application/json' }, body: newPerson, onResponse: seed.crmWebhook.onResponse },
            baseline: { method: 'POST' as const, path: '/crm/contacts', headers: { 'Content-Type': 'application/json' }, body: newPerson },
            withoutWebhook: { method: 'POST' as const, path: '/dev/api/contacts', headers: { Authorization: seed.crmWebhook.plain, ...JSON_ACCEPT, 'Content-Type': 'application/json' }, body: newPerson },
            // one write at a time: on the embedded database a hooked write's transaction holds the
            // write lock for ~200 ms, and concurrent ones stall each other past autocannon's timeout
            connections: 1,
          },
        ]
      : []),
    {
      name: 'crm search by email',
      app: 'crm-api',
      ours: { method: 'GET', path: `/dev/api/contacts/search/email/${encodeURIComponent(seed.contactEmail)}`, headers: { ...crm, ...JSON_ACCEPT } },
      baseline: { method: 'GET', path: `/crm/search/email/${encodeURIComponent(seed.contactEmail)}` },
    },
    {
      name: 'crm GET deals by milestone',
      app: 'crm-api',
      ours: { method: 'GET', path: `/dev/api/opportunity/byPipeline/based?pipeline_id=${seed.trackId}`, headers: { ...crm, ...JSON_ACCEPT } },
      baseline: { method: 'GET', path: `/crm/deals/by-milestone/${seed.trackId}` },
    },
    {
      name: 'articles GET /articles',
      app: 'articles-api',
      ours: { method: 'GET', path: '/articles' },
      baseline: { method: 'GET', path: '/articles' },
    },
    {
      name: 'news GET /news?company=BHP',
      app: 'news-api',
      ours: { method: 'GET', path: '/news?company=BHP', headers: { Authorization: seed.newsAuth } },
      baseline: { method: 'GET', path: '/news?company=BHP' },
    },
    {
      name: 'news GET /news?company=BHP (X-Api-Key)',
      app: 'news-api',
      ours: { method: 'GET', path: '/news?company=BHP', headers: { 'X-Api-Key': seed.newsKey } },
      // the baseline's page and total, plus the one update a keyed request costs
      baseline: { method: 'GET', path: '/news?company=BHP&counted=1' },
    },
    {
      name: 'news GET /users/me',
      app: 'news-api',
      ours: { method: 'GET', path: '/users/me', headers: { Authorization: seed.newsAuth } },
      baseline: { method: 'GET', path: '/news/users/me', headers: { Authorization: seed.newsAuth } },
    },
    ...(seed.newsSearchAuth !== undefined
      ? [
          {
            name: 'news GET /news?q=…&sort=relevancy (20k articles)',
            app: 'news-search' as const,
            ours: { method: 'GET' as const, path: `/news?q=${encodeURIComponent(RELEVANCY_QUERY)}&sort=relevancy`, headers: { Authorization: seed.newsSearchAuth } },
            baseline: { method: 'GET' as const, path: '/news/relevance' },
            // the embedded server takes seconds per request on this corpus: more connections only queue
            connections: 2,
          },
        ]
      : []),
    {
      name: 'users GET /users',
      app: 'users-api',
      ours: { method: 'GET', path: '/users' },
      baseline: { method: 'GET', path: '/users' },
    },
  ];
}
