import request from 'supertest';
import { setupArticlesApp } from './setup-app';
import { CONTENT_MAX, MAX_LIMIT, PAGE_BUDGET_BYTES, TITLE_MAX } from '../src/articles/article.schemas';

const ctx = setupArticlesApp();

async function seed(count: number) {
  for (let i = 1; i <= count; i++) {
    await request(ctx.app).post('/articles').send({ title: `title ${i}`, content: `content ${i}` }).expect(201);
  }
}

describe('GET /articles', () => {
  it('answers an empty list envelope with defaults', async () => {
    const res = await request(ctx.app).get('/articles');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true, offset: 0, limit: 20, total: 0, data: [] });
  });

  it('lists oldest first with the full count as total', async () => {
    await seed(5);
    const res = await request(ctx.app).get('/articles');
    expect(res.body.total).toBe(5);
    expect(res.body.data.map((a: { id: number }) => a.id)).toEqual([1, 2, 3, 4, 5]);
    expect(res.body.data[0]).toEqual({
      id: 1,
      title: 'title 1',
      content: 'content 1',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('pages with offset and limit; total stays the full count', async () => {
    await seed(5);
    const page = await request(ctx.app).get('/articles?offset=3&limit=2');
    expect(page.body).toMatchObject({ status: true, offset: 3, limit: 2, total: 5 });
    expect(page.body.data.map((a: { id: number }) => a.id)).toEqual([4, 5]);
    const past = await request(ctx.app).get('/articles?offset=5&limit=2');
    expect(past.body).toMatchObject({ offset: 5, limit: 2, total: 5, data: [] });
  });

  it('walks every page exactly once', async () => {
    await seed(7);
    const seen: number[] = [];
    for (let offset = 0; offset < 7; offset += 3) {
      const res = await request(ctx.app).get(`/articles?offset=${offset}&limit=3`);
      seen.push(...res.body.data.map((a: { id: number }) => a.id));
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('accepts the maximum limit', async () => {
    const res = await request(ctx.app).get(`/articles?limit=${MAX_LIMIT}`);
    expect(res.status).toBe(200);
    expect(res.body.limit).toBe(MAX_LIMIT);
  });

  it('200 articles at their bounds: pages end at the byte budget, say so in their limit, and stepping by it yields each article once', async () => {
    // stored as POST /articles stores them (the embedded database takes them faster in one command each batch)
    const now = new Date();
    for (let first = 1; first <= 200; first += 20) {
      await ctx.Article.insertMany(
        Array.from({ length: 20 }, (_, i) => ({ _id: first + i, title: `${first + i}`.padEnd(TITLE_MAX, '€'), content: '€'.repeat(CONTENT_MAX), created_at: now, updated_at: now })),
      );
    }
    const seen: number[] = [];
    let pages = 0;
    for (let offset = 0; offset < 200; pages++) {
      const res = await request(ctx.app).get(`/articles?offset=${offset}&limit=${MAX_LIMIT}`);
      expect(res.status).toBe(200);
      const bytes = Buffer.byteLength(res.text);
      expect(bytes).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);
      const { data, limit, total } = res.body;
      expect([total, res.body.offset]).toEqual([200, offset]);
      if (offset + data.length < 200) {
        // cut by the budget: its limit is what it holds, and it is nearly full
        expect(limit).toBe(data.length);
        expect(bytes).toBeGreaterThan(PAGE_BUDGET_BYTES - 2 * Buffer.byteLength(JSON.stringify(data[0])));
      } else {
        expect(limit).toBe(MAX_LIMIT); // the last page ends with the list, not the budget
      }
      seen.push(...data.map((article: { id: number }) => article.id));
      offset += limit;
    }
    expect(seen).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(pages).toBeGreaterThan(1);
    // stepping by the limit asked for would skip what the cut pages did not hold
    const first = await request(ctx.app).get(`/articles?offset=0&limit=${MAX_LIMIT}`);
    expect(first.body.limit).toBeLessThan(MAX_LIMIT);
  }, 120_000);

  it('a page within the budget keeps the limit asked for, also the last one', async () => {
    await seed(5);
    const res = await request(ctx.app).get(`/articles?offset=3&limit=${MAX_LIMIT}`);
    expect(res.body).toMatchObject({ offset: 3, limit: MAX_LIMIT, total: 5 });
    expect(res.body.data.map((article: { id: number }) => article.id)).toEqual([4, 5]);
  });

  it.each([
    ['limit=0', 'limit'],
    [`limit=${MAX_LIMIT + 1}`, 'limit'],
    ['limit=abc', 'limit'],
    ['limit=', 'limit'],
    ['limit=1.5', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=1e3', 'offset'],
    ['limit=1&limit=2', 'limit'],
    ['page=2', 'page'],
    ['Limit=2', 'Limit'],
  ])('rejects ?%s with 400 naming %s', async (query, field) => {
    const res = await request(ctx.app).get(`/articles?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, code: 'validation_failed' });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
  });

  it('rejects operator-shaped query keys', async () => {
    const res = await request(ctx.app).get('/articles?$where=1');
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
  });
});

describe('GET /articles/:id', () => {
  it('answers the single-article envelope', async () => {
    await seed(2);
    const res = await request(ctx.app).get('/articles/2');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: true,
      data: { id: 2, title: 'title 2', content: 'content 2', created_at: expect.any(String), updated_at: expect.any(String) },
    });
  });

  it('answers 404 with the error envelope for an unknown id', async () => {
    const res = await request(ctx.app).get('/articles/12345');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: false, code: 'not_found', message: 'Article 12345 not found' });
  });

  it.each(['abc', '0', '-1', '1.5', '01', '99999999999999999999'])('answers 400 for id %s', async (id) => {
    const res = await request(ctx.app).get(`/articles/${id}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, code: 'validation_failed', errors: [{ field: 'id', message: expect.any(String) }] });
  });
});
