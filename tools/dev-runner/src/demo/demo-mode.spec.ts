import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_FEEDS_DIR, DEMO_PUBLISHERS_FILE, demoCredentials, startDemoMode } from './demo-mode';

const workspace = path.resolve(__dirname, '..', '..', '..', '..');

describe('startDemoMode', () => {
  it("points news-api at a publishers file whose feeds are the shipped sample feeds, served locally, and allows their loopback address", async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'demo-root-'));
    await cp(path.join(workspace, DEMO_FEEDS_DIR), path.join(root, DEMO_FEEDS_DIR), { recursive: true });
    const demo = await startDemoMode(root, {});
    try {
      const file = path.join(root, DEMO_PUBLISHERS_FILE);
      expect(demo.envFor('news-api')).toEqual({ NEWS_FEEDS: file, FEED_ALLOWED_HOSTS: '127.0.0.1' });
      expect(demo.envFor('crm-api')).toEqual({});
      const { publishers } = JSON.parse(await readFile(file, 'utf8')) as { publishers: { id: string; feeds: string[] }[] };
      expect(publishers.map((p) => p.id)).toEqual(['demo-market-wire', 'demo-company-desk']);
      for (const url of publishers.flatMap((p) => p.feeds)) {
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]+\.(rss|atom)$/);
        const res = await fetch(url);
        expect({ url, status: res.status }).toEqual({ url, status: 200 });
        expect(await res.text()).toMatch(/<(rss|feed)[\s>]/);
      }
    } finally {
      await demo.close();
    }
  });

  it('seeds with the credentials the services start with: the env, else their development defaults', () => {
    expect(demoCredentials({})).toEqual({ crmEmail: 'admin@example.com', crmApiKey: 'dev-api-key', newsMasterKey: 'news-api-development-master-key', articlesApiKey: undefined, usersApiKey: undefined });
    expect(demoCredentials({ CRM_ADMIN_EMAIL: 'o@x.test', CRM_ADMIN_API_KEY: 'k-12345678', MASTER_KEY: 'mk', ARTICLES_API_KEY: 'a', USERS_API_KEY: 'u' })).toEqual({
      crmEmail: 'o@x.test', crmApiKey: 'k-12345678', newsMasterKey: 'mk', articlesApiKey: 'a', usersApiKey: 'u',
    });
  });
});
