import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LaunchItem } from '../launch-plan';
import { DEMO_NEWS_USER } from './demo-data';
import { startFeedServer, type FeedServer } from './feed-server';
import { describeCounts, seedDemo, type DemoCredentials } from './seed-demo';

/** The sample feeds and their publishers, shipped with news-api. */
export const DEMO_FEEDS_DIR = path.join('apps', 'news-api', 'demo');
/** Where the demo writes the publishers file news-api reads (NEWS_FEEDS), with the feed server's URLs. */
export const DEMO_PUBLISHERS_FILE = path.join('.data', 'demo-publishers.json');

export interface DemoMode {
  /** Extra env of a service's process (news-api reads the sample feeds). */
  envFor(service: string): Record<string, string>;
  /** Once every service is ready: stores the demo data, then returns the lines to print. */
  seed(apps: LaunchItem[]): Promise<string[]>;
  close(): Promise<void>;
}

/** The credentials the services start with: the env's, else their development defaults (printed by the services too). */
export function demoCredentials(env: NodeJS.ProcessEnv): DemoCredentials {
  return {
    crmEmail: env.CRM_ADMIN_EMAIL || 'admin@example.com',
    crmApiKey: env.CRM_ADMIN_API_KEY || 'dev-api-key',
    newsMasterKey: env.MASTER_KEY || 'news-api-development-master-key',
    articlesApiKey: env.ARTICLES_API_KEY || undefined,
    usersApiKey: env.USERS_API_KEY || undefined,
  };
}

/**
 * `npm run demo`: serves the sample feeds on 127.0.0.1 and points news-api at them (a publishers
 * file under .data/, and 127.0.0.1 in FEED_ALLOWED_HOSTS), and after start-up seeds every service
 * through its API.
 */
export async function startDemoMode(root: string, env: NodeJS.ProcessEnv): Promise<DemoMode> {
  const feedsDir = path.join(root, DEMO_FEEDS_DIR);
  const feeds: FeedServer = await startFeedServer(path.join(feedsDir, 'feeds'));
  const template = JSON.parse(readFileSync(path.join(feedsDir, 'publishers.json'), 'utf8')) as { publishers: { feeds: string[] }[] };
  const publishers = template.publishers.map((publisher) => ({
    ...publisher,
    feeds: publisher.feeds.map((file) => {
      const url = feeds.urls.get(file);
      if (!url) throw new Error(`${DEMO_FEEDS_DIR}/publishers.json names ${file}, which is not in ${DEMO_FEEDS_DIR}/feeds`);
      return url;
    }),
  }));
  const publishersFile = path.join(root, DEMO_PUBLISHERS_FILE);
  mkdirSync(path.dirname(publishersFile), { recursive: true });
  writeFileSync(publishersFile, `${JSON.stringify({ publishers }, null, 2)}\n`);
  const credentials = demoCredentials(env);

  return {
    // the feed server is on loopback, which the outbound guard refuses unless allow-listed
    envFor: (service): Record<string, string> => (service === 'news-api' ? { NEWS_FEEDS: publishersFile, FEED_ALLOWED_HOSTS: '127.0.0.1' } : {}),
    async seed(apps) {
      const url = (name: string) => {
        const app = apps.find((item) => item.name === name);
        if (!app) throw new Error(`the demo needs ${name}, which is not running (build it: npx nx build ${name})`);
        return `http://127.0.0.1:${app.port}`;
      };
      const counts = await seedDemo({ crm: url('crm-api'), articles: url('articles-api'), news: url('news-api'), users: url('users-api') }, credentials);
      const gatewayUrl = (name: string) => apps.find((item) => item.name === name)?.urls.at(-1) ?? url(name);
      return [
        `demo data: ${describeCounts(counts)}`,
        'demo credentials:',
        `  crm-api       HTTP Basic ${credentials.crmEmail} / ${credentials.crmApiKey}: curl -u ${credentials.crmEmail}:${credentials.crmApiKey} -H 'Accept: application/json' ${gatewayUrl('crm-api')}/dev/api/contacts`,
        `  news-api      ${DEMO_NEWS_USER.email} / ${DEMO_NEWS_USER.password} (admin) with the master key ${credentials.newsMasterKey}: POST /auth gives the token for GET /news`,
        `  articles-api  ${credentials.articlesApiKey ? 'writes need X-API-Key (ARTICLES_API_KEY)' : 'no credentials'}; users-api ${credentials.usersApiKey ? 'writes need X-API-Key (USERS_API_KEY)' : 'no credentials'}`,
      ];
    },
    close: () => feeds.close(),
  };
}
