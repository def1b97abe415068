import { expectLoadServed, expectNoneMissing, expectServedThroughOutage, itServesThroughDatabaseFaults, itStartsOnceDatabaseAnswers, sendRaw, type OutageTiming, type RawRequest, useFaultyServiceApp } from '@lib/testing';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { articlesService } from '../src/service';
import { articleModel } from '../src/articles/article.model';
import { setupArticlesApp } from './setup-app';

const json = { 'Content-Type': 'application/json' };
const SHARED = 1_000_000;

const write = (title: string): RawRequest => ({ method: 'post', url: '/articles', headers: json, body: JSON.stringify({ title, content: 'fault' }) });
const read: RawRequest = { method: 'get', url: '/articles?limit=10', headers: {} };
const titleOf = (req: RawRequest): string => JSON.parse(String(req.body)).title;
const unavailableBody = { status: false, code: 'database_unavailable', message: 'The database is unavailable; try again shortly', error_id: expect.any(String) };
const overloadedBody = { status: false, code: 'overloaded', message: expect.any(String), error_id: expect.any(String) };

describe('articles-api under load', () => {
  const ctx = setupArticlesApp();

  it('200 concurrent connections of mixed reads and writes: zero 5xx, every acknowledged write stored exactly once', async () => {
    await ctx.Article.create({ _id: SHARED, title: 'Shared', content: 'v0' }); // outside the counter's range
    const created: string[] = [];
    const createdIds: number[] = [];
    const replaced: string[] = [];
    await expectLoadServed(ctx.app, {
      connections: 200,
      durationMs: 1_500,
      next: (worker, n): RawRequest => {
        switch ((worker + n) % 4) {
          case 0:
            return { method: 'post', url: '/articles', headers: json, body: JSON.stringify({ title: `L${worker}x${n}`, content: 'load' }) };
          case 1:
            return { method: 'put', url: `/articles/${SHARED}`, headers: json, body: JSON.stringify({ title: 'Shared', content: `R${worker}x${n}` }) };
          case 2:
            return { method: 'get', url: `/articles/${SHARED}`, headers: {} };
          default:
            return { method: 'get', url: '/articles?limit=10', headers: {} };
        }
      },
      onResponse: (req, res) => {
        if (req.method === 'post' && res.status === 201) {
          created.push(JSON.parse(String(req.body)).title);
          createdIds.push(JSON.parse(res.text).data.id);
        }
        if (req.method === 'put' && res.status === 200) replaced.push(JSON.parse(String(req.body)).content);
      },
      statuses: ['200', '201'],
    });
    const stored = (await ctx.Article.find({ _id: { $ne: SHARED } }).lean()).map((a) => a.title);
    expect(stored.sort()).toEqual(created.sort()); // none missing, none twice
    expect(created.length).toBeGreaterThan(20);
    // the shared article holds one of the acknowledged replacements, whole (title and content together)
    const shared = await ctx.Article.findById(SHARED).lean();
    expect(replaced).toContain(shared!.content);
    expect(shared!.title).toBe('Shared');
    // every acknowledged create answered with its own id (no id handed out twice), and the stored
    // articles are exactly those ids
    expect(new Set(createdIds).size).toBe(createdIds.length);
    const storedIds = (await ctx.Article.find({ _id: { $ne: SHARED } }, { _id: 1 }).lean()).map((a) => a._id);
    expect(storedIds.sort((x, y) => x - y)).toEqual([...createdIds].sort((x, y) => x - y));
  }, 30_000);
});

describe('articles-api when the database stops during load', () => {
  const faulty = useFaultyServiceApp(createApp, { dbName: 'articles_fault' });

  /** Load through the database's outage; what both tests check. */
  async function throughOutage(prefix: string, timing: OutageTiming) {
    const acked: string[] = [];
    await expectServedThroughOutage(faulty, timing, {
      next: (worker, n) => (n % 2 === 0 ? write(`${prefix}${worker}x${n}`) : read),
      onResponse: (req, res) => {
        if (req.method === 'post' && res.status === 201) acked.push(titleOf(req));
      },
      statuses: ['200', '201', '503'],
      unavailableBody,
      overloadedBody,
    });
    // serves again without a restart
    expect((await sendRaw(faulty.port, write(`${prefix}-after`))).status).toBe(201);
    acked.push(`${prefix}-after`);
    // no acknowledged write is missing (a write cut off mid-way may be stored without an acknowledgement)
    expectNoneMissing(acked, (await articleModel(faulty.connection).find({}, { title: 1 }).lean()).map((a) => a.title));
    expect(acked.length).toBeGreaterThan(1);
  }

  itServesThroughDatabaseFaults(throughOutage);
});

describe('articles-api started while its database is unreachable', () => {
  itStartsOnceDatabaseAnswers({
    service: (url) => articlesService(loadConfig({ MONGO_URL: url })),
    request: write('starter'),
    startedStatus: 201,
    unavailableBody,
  });
});
