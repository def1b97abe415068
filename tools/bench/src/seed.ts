import { MongoClient, type Db } from 'mongodb';
import { NEWS_SEARCH_DB, type AppName, type Seeded } from './endpoints';
import { newsCorpus } from './news-corpus';

/** The account owner `npm start` and the apps create by default (CRM_ADMIN_EMAIL / CRM_ADMIN_API_KEY). */
const CRM_USER = 'admin@example.com';
const CRM_KEY = 'dev-api-key';
/** news-api's development MASTER_KEY (the bench runs the apps with their development defaults). */
const NEWS_MASTER_KEY = 'news-api-development-master-key';
/** Deals in the benchmarked track: D9 answers all of them at once (it is not paged). */
const DEALS = 40;
const MILESTONES = ['Lead', 'Demo', 'Proposal', 'Won', 'Lost'];

async function post(url: string, headers: Record<string, string>, body?: string): Promise<Response> {
  const res = await fetch(url, { method: 'POST', headers, body });
  if (!res.ok) throw new Error(`seeding ${url} answered ${res.status}: ${await res.text()}`);
  return res;
}

/** Runs `task(i)` for i in 0…count-1, `parallel` at a time. */
async function times(count: number, parallel: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < count) await task(next++);
  }));
}

/** A board of DEALS deals in one new track, spread over its milestones, each related to a seeded contact. */
async function seedDeals(crm: string, headers: Record<string, string>, ownerId: number, contactIds: number[]): Promise<number> {
  const track = (await (await post(`${crm}/dev/api/milestone/pipelines`, headers, JSON.stringify({ name: 'Bench', milestone: MILESTONES.join(',') }))).json()) as { id: number };
  await times(DEALS, 4, (i) =>
    post(
      `${crm}/dev/api/opportunity`,
      headers,
      JSON.stringify({
        name: `Deal ${i}`,
        expected_value: 1000 * (i + 1),
        pipeline_id: track.id,
        milestone: MILESTONES[i % MILESTONES.length],
        close_date: 1_800_000_000,
        owner_id: ownerId,
        contact_ids: [contactIds[i % contactIds.length]],
      }),
    ),
  );
  return track.id;
}

/** Articles of news-api's search corpus by default (the sort=relevancy row). */
export const NEWS_CORPUS = 20_000;
/** Articles of the search corpus written per insert (the embedded database slows down on single inserts). */
const CORPUS_BATCH = 1_000;
const log = (line: string) => console.error(`bench | ${line}`);

/**
 * news-api's SEARCH_VERSION (apps/news-api/src/news/search/search-fields.ts), which the corpus's
 * search fields are written under. Should news-api's recipe change, its next sync re-indexes them
 * (slowly on the embedded database: an update costs it about 25 ms): update this with it.
 */
const SEARCH_VERSION = 1;

/**
 * The search rows' corpus: `count` articles of `newsCorpus` after the ids `after`, one every 37 s
 * back from `now`, mentioning no company, written straight into the database with the search
 * fields news-api gives an article (its words are already folded: see news-corpus.ts), in batches:
 * the embedded database inserts a batch far faster than it updates articles one by one.
 */
async function seedSearchCorpus(db: Db, count: number, after: number, now: number): Promise<void> {
  const corpus = newsCorpus(count);
  const started = Date.now();
  for (let from = 0; from < count; from += CORPUS_BATCH) {
    await db.collection<{ _id: number }>('articles').insertMany(
      corpus.slice(from, from + CORPUS_BATCH).map(({ title, summary, words }, i) => {
        const id = after + from + i + 1;
        return {
          _id: id,
          url: `https://www.abc.net.au/news/bench-corpus/${id}`,
          title,
          summary,
          source: 'abc-news',
          source_name: 'ABC News',
          published_at: new Date(now - (from + i) * 37_000),
          companies: [],
          fetched_at: new Date(now),
          domains: ['www.abc.net.au', 'abc.net.au', 'net.au'],
          language: 'en',
          search: {
            v: SEARCH_VERSION,
            terms: [...new Set([...words.title, ...words.summary, ...words.content])],
            title: words.title.join(' '),
            summary: words.summary.join(' '),
            content: words.content.join(' '),
          },
        };
      }),
    );
  }
  log(`news search corpus: ${count} articles inserted in ${((Date.now() - started) / 1000).toFixed(1)} s (batches of ${CORPUS_BATCH})`);
}

/** A news-api user and its token, through the API as a client would. */
async function newsToken(news: string): Promise<string> {
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
  const credentials = { email: 'bench@example.com', password: 'bench-password-1' };
  await post(`${news}/users`, form, new URLSearchParams({ ...credentials, access_token: NEWS_MASTER_KEY }).toString());
  const basic = `Basic ${Buffer.from(`${credentials.email}:${credentials.password}`).toString('base64')}`;
  const { token } = (await (await post(`${news}/auth`, { ...form, Authorization: basic }, `access_token=${NEWS_MASTER_KEY}`)).json()) as { token: string };
  return `Bearer ${token}`;
}

/** An API key of the news user (the keyed row). */
async function newsApiKey(news: string, auth: string): Promise<string> {
  const res = await post(`${news}/users/me/keys`, { 'Content-Type': 'application/json', Authorization: auth }, JSON.stringify({ name: 'bench' }));
  return ((await res.json()) as { key: string }).key;
}

/** The search process's user and token, and its corpus of `count` articles in NEWS_SEARCH_DB. */
async function seedNewsSearch(news: string, mongoUrl: string, count: number): Promise<string> {
  const auth = await newsToken(news);
  const client = await new MongoClient(mongoUrl).connect();
  try {
    const db = client.db(NEWS_SEARCH_DB);
    await seedSearchCorpus(db, count, 0, Date.now());
    await db.collection<{ _id: string; seq: number }>('counters').updateOne({ _id: 'articles' }, { $set: { seq: count } }, { upsert: true });
  } finally {
    await client.close();
  }
  return auth;
}

/**
 * A news-api user and its token, and `count` articles written straight into the database (feeds
 * cannot be fetched here), half of them mentioning BHP.
 */
async function seedNews(news: string, mongoUrl: string, count: number): Promise<string> {
  const auth = await newsToken(news);
  const client = await new MongoClient(mongoUrl).connect();
  try {
    const db = client.db('news');
    const now = Date.now();
    const companies = (i: number) => [['BHP'], ['BHP', 'RIO'], ['CBA'], ['WES']][i % 4];
    await db.collection<{ _id: number }>('articles').insertMany(
      Array.from({ length: count }, (_, i) => ({
        _id: i + 1,
        url: `https://www.abc.net.au/news/bench/${i + 1}`,
        title: `Bench article ${i + 1} about ${companies(i).join(' and ')}`,
        summary: `Summary of bench article ${i + 1}. `.repeat(5),
        source: 'abc-news',
        source_name: 'ABC News',
        published_at: new Date(now - i * 60_000),
        companies: companies(i),
        fetched_at: new Date(now),
      })),
    );
    // the next article a sync stores takes the id after the seeded ones
    await db.collection<{ _id: string; seq: number }>('counters').updateOne({ _id: 'articles' }, { $set: { seq: count } }, { upsert: true });
  } finally {
    await client.close();
  }
  return auth;
}

/**
 * Seeds `count` records per service through the APIs of the running `apps` (the news articles
 * straight into the database at `mongoUrl`), and when the search process runs, its corpus.
 */
export async function seed(apps: Record<AppName, { port: number }>, count: number, mongoUrl: string, search?: { port: number; corpus: number }): Promise<Seeded> {
  const ports = { crm: apps['crm-api'].port, articles: apps['articles-api'].port, news: apps['news-api'].port, users: apps['users-api'].port };
  const crmAuth = `Basic ${Buffer.from(`${CRM_USER}:${CRM_KEY}`).toString('base64')}`;
  const crmHeaders = { Authorization: crmAuth, 'Content-Type': 'application/json', Accept: 'application/json' };
  let contactId = 0;
  let ownerId = 0;
  const contactIds: number[] = [];
  await times(count, 8, async (i) => {
    const person = {
      tags: ['Seed'],
      properties: [
        { type: 'SYSTEM', name: 'first_name', value: `Seed${i}` },
        { type: 'SYSTEM', name: 'last_name', value: 'Person' },
        { type: 'SYSTEM', name: 'email', subtype: 'work', value: `seed${i}@bench.test` },
      ],
    };
    const res = await post(`http://127.0.0.1:${ports.crm}/dev/api/contacts`, crmHeaders, JSON.stringify(person));
    const created = (await res.json()) as { id: number; domainUser: { id: number } };
    contactIds.push(created.id);
    ownerId = created.domainUser.id;
    if (i === Math.floor(count / 2)) contactId = created.id;
  });
  const trackId = await seedDeals(`http://127.0.0.1:${ports.crm}`, crmHeaders, ownerId, contactIds);
  await times(count, 8, (i) =>
    post(`http://127.0.0.1:${ports.articles}/articles`, { 'Content-Type': 'application/json' }, JSON.stringify({ title: `Article ${i}`, content: `Body of article ${i}. `.repeat(20) })),
  );
  await times(count, 8, (i) => post(`http://127.0.0.1:${ports.users}/users?name=User${i}&age=${20 + (i % 50)}.5&city=Sydney`, {}));
  const newsAuth = await seedNews(`http://127.0.0.1:${ports.news}`, mongoUrl, count);
  const newsKey = await newsApiKey(`http://127.0.0.1:${ports.news}`, newsAuth);
  const newsSearchAuth = search && (await seedNewsSearch(`http://127.0.0.1:${search.port}`, mongoUrl, search.corpus));
  return { crmAuth, contactId, contactEmail: `seed${Math.floor(count / 2)}@bench.test`, trackId, newsAuth, newsKey, ...(newsSearchAuth && { newsSearchAuth }) };
}
