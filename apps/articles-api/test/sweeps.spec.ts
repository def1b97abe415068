import { hostileInputSweep, securitySweep, type SecuritySweepTarget, snapshotDatabase } from '@lib/testing';
import type { AnyRoute } from '@lib/routing';
import { setupArticlesApp } from './setup-app';

const API_KEY = 'sweep-articles-key-0123456789';
const ctx = setupArticlesApp({ apiKey: API_KEY });
const samples: Record<string, number> = {};

const target: SecuritySweepTarget = {
  // reads are public, writes need the key
  isPublic: (route: AnyRoute) => route.method === 'get',
  wrongCredentials: [{ 'X-API-Key': `${API_KEY}x` }, { Authorization: 'Bearer nope' }, { Authorization: `Basic ${Buffer.from(`a:${API_KEY}`).toString('base64')}` }],
  get app() {
    return ctx.app;
  },
  credentials: () => ({ 'X-API-Key': API_KEY }),
  snapshot: () => snapshotDatabase(ctx.Article.db),
  sample: (name) => samples[name],
  async seed() {
    const doc = await ctx.Article.create({ _id: 7, title: 'Seed', content: 'Seeded article' });
    samples.id = doc._id;
  },
};

describe('articles-api hostile input, generated from the route table', () => {
  hostileInputSweep(target);
});

describe('articles-api security sweep, generated from the route table', () => {
  securitySweep(target);
});
