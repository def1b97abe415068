import { DEMO_ARTICLES, DEMO_CONTACTS, DEMO_NEWS_USER, DEMO_TRACK, DEMO_USERS, type DemoContact } from './demo-data';

/** Where each service listens (its local port) and the credentials its seeding needs. */
export interface DemoTargets {
  crm: string;
  articles: string;
  news: string;
  users: string;
}

export interface DemoCredentials {
  crmEmail: string;
  crmApiKey: string;
  newsMasterKey: string;
  articlesApiKey?: string;
  usersApiKey?: string;
}

/** What a seeding stored (new) and found already there (kept), per kind, for the start-up log. */
export type SeedCounts = Record<string, { created: number; found: number }>;

type Json = Record<string, unknown>;

class SeedError extends Error {}

async function call(method: string, url: string, init: { headers?: Record<string, string>; body?: unknown; form?: Record<string, string> } = {}): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
  let body: string | undefined;
  if (init.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  const parsed = text && /json/.test(res.headers.get('content-type') ?? '') ? (JSON.parse(text) as unknown) : text;
  return { status: res.status, body: parsed };
}

/** `call`, then insists on one of `ok`; the error names the request and the answer. */
async function expectCall(ok: number[], method: string, url: string, init?: Parameters<typeof call>[2]): Promise<{ status: number; body: unknown }> {
  const res = await call(method, url, init);
  if (!ok.includes(res.status)) throw new SeedError(`${method} ${url} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return res;
}

const asList = (res: { status: number; body: unknown }): Json[] => (res.status === 204 || !Array.isArray(res.body) ? [] : (res.body as Json[]));
const tally = (counts: SeedCounts, kind: string, created: boolean) => {
  const entry = (counts[kind] ??= { created: 0, found: 0 });
  entry[created ? 'created' : 'found']++;
};

/** Contacts (found by email), a track (by name), and per contact its deal, task and note unless it has some. */
async function seedCrm(base: string, credentials: DemoCredentials, counts: SeedCounts, now: number): Promise<void> {
  const headers = { Authorization: `Basic ${Buffer.from(`${credentials.crmEmail}:${credentials.crmApiKey}`).toString('base64')}` };
  const api = `${base}/dev/api`;
  const me = (await expectCall([200], 'GET', `${api}/users/current-user`, { headers })).body as { id: number };

  const tracks = asList(await expectCall([200, 204], 'GET', `${api}/milestone/pipelines`, { headers }));
  const existing = tracks.find((t) => t.name === DEMO_TRACK.name) as { id: number } | undefined;
  const body = { name: DEMO_TRACK.name, milestone: DEMO_TRACK.milestones.join(',') };
  const track = existing ?? ((await expectCall([200], 'POST', `${api}/milestone/pipelines`, { headers, body })).body as { id: number });
  tally(counts, 'track', !existing);

  for (const contact of DEMO_CONTACTS) {
    const id = await findOrCreateContact(api, headers, contact, counts);
    if (contact.deal) {
      const has = asList(await expectCall([200, 204], 'GET', `${api}/contacts/${id}/deals`, { headers })).length > 0;
      if (!has) {
        const { name, value, milestone, probability } = contact.deal;
        const body = { name, expected_value: value, pipeline_id: track.id, milestone, probability, close_date: now + 30 * 86_400, owner_id: me.id, contact_ids: [String(id)] };
        await expectCall([200], 'POST', `${api}/opportunity`, { headers, body });
      }
      tally(counts, 'deals', !has);
    }
    if (contact.task) {
      const has = asList(await expectCall([200, 204], 'GET', `${api}/contacts/${id}/tasks/sort`, { headers })).length > 0;
      if (!has) {
        const { subject, type, priority, dueInDays } = contact.task;
        const body = { subject, type, priority_type: priority, due: now + dueInDays * 86_400, contacts: [String(id)] };
        await expectCall([200], 'POST', `${api}/tasks`, { headers, body });
      }
      tally(counts, 'tasks', !has);
    }
    if (contact.note) {
      const has = asList(await expectCall([200, 204], 'GET', `${api}/contacts/${id}/notes`, { headers })).length > 0;
      if (!has) await expectCall([200], 'POST', `${api}/notes`, { headers, body: { ...contact.note, contact_ids: [String(id)] } });
      tally(counts, 'notes', !has);
    }
  }
}

async function findOrCreateContact(api: string, headers: Record<string, string>, contact: DemoContact, counts: SeedCounts): Promise<number> {
  const found = await expectCall([200, 204], 'GET', `${api}/contacts/search/email/${encodeURIComponent(contact.email)}`, { headers });
  tally(counts, 'contacts', found.status === 204);
  if (found.status === 200) return (found.body as { id: number }).id;
  const body = {
    tags: contact.tags,
    star_value: contact.stars,
    properties: [
      { type: 'SYSTEM', name: 'first_name', value: contact.firstName },
      { type: 'SYSTEM', name: 'last_name', value: contact.lastName },
      { type: 'SYSTEM', name: 'title', value: contact.title },
      { type: 'SYSTEM', name: 'email', subtype: 'work', value: contact.email },
    ],
  };
  return ((await expectCall([200], 'POST', `${api}/contacts`, { headers, body })).body as { id: number }).id;
}

/** Articles by title: reads every title (25 a page, at most 1,000 looked at), adds the missing. */
async function seedArticles(base: string, apiKey: string | undefined, counts: SeedCounts): Promise<void> {
  const titles = new Set<string>();
  for (let offset = 0; offset < 1_000; offset += 25) {
    const page = (await expectCall([200], 'GET', `${base}/articles?offset=${offset}&limit=25`)).body as { data: { title: string }[] };
    page.data.forEach((article) => titles.add(article.title));
    if (page.data.length < 25) break;
  }
  const headers = apiKey ? { 'X-API-Key': apiKey } : undefined;
  for (const article of DEMO_ARTICLES) {
    const missing = !titles.has(article.title);
    if (missing) await expectCall([201], 'POST', `${base}/articles`, { headers, body: article });
    tally(counts, 'articles', missing);
  }
}

/** Users by name among the first 1,000. */
async function seedUsers(base: string, apiKey: string | undefined, counts: SeedCounts): Promise<void> {
  const page = (await expectCall([200], 'GET', `${base}/users?limit=1000`)).body as { data: { name: string }[] };
  const names = new Set(page.data.map((user) => user.name));
  const headers = apiKey ? { 'X-API-Key': apiKey } : undefined;
  for (const user of DEMO_USERS) {
    const missing = !names.has(user.name);
    if (missing) await expectCall([200], 'POST', `${base}/users?${new URLSearchParams(user)}`, { headers });
    tally(counts, 'users', missing);
  }
}

/** The demo news user (409: already there), then a sync of the sample feeds (idempotent by URL). */
async function seedNews(base: string, masterKey: string, counts: SeedCounts): Promise<void> {
  const created = await expectCall([201, 409], 'POST', `${base}/users`, { form: { ...DEMO_NEWS_USER, access_token: masterKey } });
  tally(counts, 'news user', created.status === 201);
  const report = (await expectCall([200], 'POST', `${base}/news/sync`, { form: { access_token: masterKey } })).body as {
    sources: { name: string; inserted: number; updated: number; errors: string[] }[];
  };
  const failed = report.sources.filter((source) => source.errors.length > 0);
  if (failed.length > 0) throw new SeedError(`news-api could not read the sample feeds: ${failed.flatMap((source) => source.errors).join('; ')}`);
  // what the demo user sees (a sync may have run at start already: the report counts only its own inserts)
  const basic = `Basic ${Buffer.from(`${DEMO_NEWS_USER.email}:${DEMO_NEWS_USER.password}`).toString('base64')}`;
  const { token } = (await expectCall([200, 201], 'POST', `${base}/auth`, { headers: { Authorization: basic }, form: { access_token: masterKey } })).body as { token: string };
  const { total } = (await expectCall([200], 'GET', `${base}/news?limit=1`, { headers: { Authorization: `Bearer ${token}` } })).body as { total: number };
  const inserted = report.sources.reduce((sum, source) => sum + source.inserted, 0);
  counts['news articles'] = { created: inserted, found: total - inserted };
}

/**
 * Stores the demo data through each service's public API, as a client would: every rule of the
 * services applies. Idempotent: what exists (by its natural key) is found and kept.
 */
export async function seedDemo(targets: DemoTargets, credentials: DemoCredentials, now = Math.floor(Date.now() / 1000)): Promise<SeedCounts> {
  const counts: SeedCounts = {};
  await seedCrm(targets.crm, credentials, counts, now);
  await seedArticles(targets.articles, credentials.articlesApiKey, counts);
  await seedUsers(targets.users, credentials.usersApiKey, counts);
  await seedNews(targets.news, credentials.newsMasterKey, counts);
  return counts;
}

/** `contacts 4 (4 new)`, one item per kind. */
export function describeCounts(counts: SeedCounts): string {
  return Object.entries(counts)
    .map(([kind, { created, found }]) => `${kind} ${created + found} (${created} new)`)
    .join(', ');
}
