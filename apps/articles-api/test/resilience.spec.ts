import { listenLoopback, runLoad, serverErrors, type RawRequest } from '@lib/http/testing';
import { setupArticlesApp } from './setup-app';

const json = { 'Content-Type': 'application/json' };
const SHARED = 1_000_000;

describe('articles-api under load', () => {
  const ctx = setupArticlesApp();

  it('200 concurrent connections of mixed reads and writes: zero 5xx, every acknowledged write stored exactly once', async () => {
    await ctx.Article.create({ _id: SHARED, title: 'Shared', content: 'v0' }); // outside the counter's range
    const created: string[] = [];
    const replaced: string[] = [];
    const server = await listenLoopback(ctx.app);
    try {
      const result = await runLoad({
        port: server.port,
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
          if (req.method === 'post' && res.status === 201) created.push(JSON.parse(String(req.body)).title);
          if (req.method === 'put' && res.status === 200) replaced.push(JSON.parse(String(req.body)).content);
        },
      });
      expect({ serverErrors: serverErrors(result), failedConnections: result.failedConnections, statuses: Object.keys(result.byStatus) }).toEqual({
        serverErrors: 0,
        failedConnections: 0,
        statuses: ['200', '201'],
      });
    } finally {
      await server.close();
    }
    const stored = (await ctx.Article.find({ _id: { $ne: SHARED } }).lean()).map((a) => a.title);
    expect(stored.sort()).toEqual(created.sort()); // none missing, none twice
    expect(created.length).toBeGreaterThan(20);
    // the shared article holds one of the acknowledged replacements, whole (title and content together)
    const shared = await ctx.Article.findById(SHARED).lean();
    expect(replaced).toContain(shared!.content);
    expect(shared!.title).toBe('Shared');
    // ids are unique and come from the counter
    expect(new Set((await ctx.Article.find().lean()).map((a) => a._id)).size).toBe(created.length + 1);
  }, 30_000);
});
