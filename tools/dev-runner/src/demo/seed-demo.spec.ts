import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useReplicas } from '@lib/testing';
import { DEMO_ARTICLES, DEMO_CONTACTS, DEMO_NEWS_USER, DEMO_USERS } from './demo-data';
import { DEMO_FEEDS_DIR, demoCredentials, startDemoMode, type DemoMode } from './demo-mode';
import { seedDemo } from './seed-demo';

// The four real apps (one process each, on this file's databases), news-api reading the shipped
// sample feeds from the demo's local feed server: what `npm run demo` runs, seeded twice.
const workspace = path.resolve(__dirname, '..', '..', '..', '..');
let demo: DemoMode | undefined;
let newsEnv: Record<string, string> = {};
beforeAll(async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'demo-seed-'));
  await cp(path.join(workspace, DEMO_FEEDS_DIR), path.join(root, DEMO_FEEDS_DIR), { recursive: true });
  demo = await startDemoMode(root, {});
  newsEnv = demo.envFor('news-api');
});
afterAll(() => demo?.close());

// env is a getter: useReplicas reads it in its beforeAll, after the one above has started the feed server
const app = (name: string, env: () => Record<string, string> = () => ({})) => {
  const replicas = useReplicas({ entry: `apps/${name}/src/main.ts`, replicas: 1, readyTimeoutMs: 60_000, get env() { return { NEWS_SYNC_INTERVAL: '0', ...env() }; } });
  return () => replicas.urls[0];
};
const crm = app('crm-api');
const articles = app('articles-api');
const users = app('users-api');
const news = app('news-api', () => newsEnv);

const credentials = demoCredentials({});
const crmAuth = { Authorization: `Basic ${Buffer.from(`${credentials.crmEmail}:${credentials.crmApiKey}`).toString('base64')}`, Accept: 'application/json' };
const getJson = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers });
  expect({ url, status: res.status }).toEqual({ url, status: 200 });
  return res.json() as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
};

it('stores the demo data through the APIs, and a second run finds it all and adds nothing', async () => {
  const targets = { crm: crm(), articles: articles(), news: news(), users: users() };
  const first = await seedDemo(targets, credentials);
  expect(first).toEqual({
    track: { created: 1, found: 0 },
    contacts: { created: 4, found: 0 },
    deals: { created: 4, found: 0 },
    tasks: { created: 3, found: 0 },
    notes: { created: 3, found: 0 },
    articles: { created: 3, found: 0 },
    users: { created: 4, found: 0 },
    'news user': { created: 1, found: 0 },
    'news articles': { created: 9, found: 0 },
  });

  const second = await seedDemo(targets, credentials);
  for (const [kind, { created, found }] of Object.entries(first)) expect({ kind, ...second[kind] }).toEqual({ kind, created: 0, found: created + found });

  // what a user then sees, through the same APIs
  const deals = await getJson(`${targets.crm}/dev/api/opportunity?page_size=10`, crmAuth);
  expect(deals.map((d: { name: string }) => d.name).sort()).toEqual(DEMO_CONTACTS.map((c) => c.deal?.name).sort());
  const tracks = await getJson(`${targets.crm}/dev/api/milestone/pipelines`, crmAuth);
  const track = tracks.find((t: { name: string }) => t.name === 'Demo sales');
  expect(track.milestones).toBe('Lead,Qualified,Proposal,Won,Lost');
  expect(new Set(deals.map((d: { pipeline_id: number }) => d.pipeline_id))).toEqual(new Set([track.id]));
  expect((await getJson(`${targets.crm}/dev/api/tasks/all`, crmAuth)).length).toBe(3);
  expect((await getJson(`${targets.articles}/articles`)).data.map((a: { title: string }) => a.title)).toEqual(DEMO_ARTICLES.map((a) => a.title));
  expect((await getJson(`${targets.users}/users`)).data.map((u: { name: string }) => u.name)).toEqual(DEMO_USERS.map((u) => u.name));

  const auth = await fetch(`${targets.news}/auth`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${DEMO_NEWS_USER.email}:${DEMO_NEWS_USER.password}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `access_token=${credentials.newsMasterKey}`,
  });
  const { token } = (await auth.json()) as { token: string };
  const bhp = await getJson(`${targets.news}/news?company=BHP`, { Authorization: `Bearer ${token}` });
  expect(bhp.data.map((a: { title: string }) => a.title).sort()).toEqual(['BHP lifts iron ore guidance as Pilbara shipments rise', 'Rio Tinto and BHP weigh a shared rail line']);
}, 120_000);
