import request from 'supertest';
import { setupArticlesApp } from './setup-app';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const ctx = setupArticlesApp();

const create = (body: object) => request(ctx.app).post('/articles').send(body);

describe('POST /articles', () => {
  it('creates from JSON: 201, the envelope, a Location and the stored document', async () => {
    const res = await create({ title: 'Hello', content: 'World' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('/articles/1');
    expect(res.body).toEqual({
      status: true,
      data: { id: 1, title: 'Hello', content: 'World', created_at: expect.stringMatching(TIMESTAMP), updated_at: expect.stringMatching(TIMESTAMP) },
    });
    expect(res.body.data.created_at).toBe(res.body.data.updated_at);
    const stored = await ctx.Article.findById(1).lean();
    expect(stored).toMatchObject({ title: 'Hello', content: 'World' });
    // UTC: the wire timestamp is the stored instant's ISO form without zone
    expect(res.body.data.created_at).toBe(stored!.created_at.toISOString().slice(0, 19).replace('T', ' '));
  });

  it('creates from a urlencoded form', async () => {
    const res = await request(ctx.app).post('/articles').type('form').send('title=Form+title&content=a%26b');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ id: 1, title: 'Form title', content: 'a&b' });
  });

  it('accepts a JSON content type with a trailing semicolon, as some clients send', async () => {
    const res = await request(ctx.app).post('/articles').set('Content-Type', 'application/json;').send('{"title":"t","content":"c"}');
    expect(res.status).toBe(201);
  });

  it.each([
    [{}, ['title', 'content'], 'both missing'],
    [{ title: 'only title' }, ['content'], 'content missing'],
    [{ title: '   ', content: 'x' }, ['title'], 'blank title'],
    [{ title: 'x', content: '' }, ['content'], 'empty content'],
    [{ title: 42, content: 'x' }, ['title'], 'title not a string'],
    [{ title: 'x'.repeat(256), content: 'x' }, ['title'], 'title too long'],
    [{ title: 'x', content: 'x', id: 7 }, ['id'], 'client-chosen id'],
    [{ title: 'x', content: 'x', created_at: '2020-01-01 00:00:00' }, ['created_at'], 'client timestamp'],
    [{ title: 'x', content: 'x', Title: 'y' }, ['Title'], 'key in another case'],
  ])('rejects %j with 400 naming %j (%s) and stores nothing', async (body, fields, _case) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, code: 'validation_failed' });
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([...fields].sort());
    for (const field of fields) expect(res.body.message).toContain(field);
    expect(await ctx.Article.countDocuments()).toBe(0);
  });

  it('accepts a title of exactly the maximum length', async () => {
    const res = await create({ title: 'x'.repeat(255), content: 'c' });
    expect(res.status).toBe(201);
  });

  it('rejects malformed JSON with 400', async () => {
    const res = await request(ctx.app).post('/articles').set('Content-Type', 'application/json').send('{"title": "x",');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: false, code: 'invalid_body', message: expect.stringContaining('not valid JSON') });
    expect(await ctx.Article.countDocuments()).toBe(0);
  });

  it('rejects a JSON array body', async () => {
    const res = await request(ctx.app).post('/articles').send([{ title: 'x', content: 'y' }]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'body', message: expect.stringContaining('expected object') }]);
  });

  it('rejects MongoDB operator keys', async () => {
    const res = await create({ title: { $gt: '' }, content: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('$gt');
    expect(await ctx.Article.countDocuments()).toBe(0);
  });

  it('answers 415 for a body that is neither JSON nor a form', async () => {
    const res = await request(ctx.app).post('/articles').set('Content-Type', 'text/plain').send('title=x');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ status: false, code: 'unsupported_media_type' });
    expect(await ctx.Article.countDocuments()).toBe(0);
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await create({ title: 'big', content: 'x'.repeat(600 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ status: false, code: 'payload_too_large' });
    expect(await ctx.Article.countDocuments()).toBe(0);
  });

  it('gives 50 parallel creates 50 distinct ids and stores all of them', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => create({ title: `t${i}`, content: 'c' })));
    expect(responses.every((r) => r.status === 201)).toBe(true);
    const ids = responses.map((r) => r.body.data.id).sort((a: number, b: number) => a - b);
    expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await ctx.Article.countDocuments()).toBe(50);
  });
});

describe('PUT /articles/:id', () => {
  it('replaces title and content, keeps created_at and moves updated_at', async () => {
    const created = (await create({ title: 'old', content: 'old body' })).body.data;
    await new Promise((r) => setTimeout(r, 5));
    const res = await request(ctx.app).put(`/articles/${created.id}`).send({ title: 'new', content: 'new body' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true, data: { ...created, title: 'new', content: 'new body', updated_at: expect.stringMatching(TIMESTAMP) } });
    const stored = await ctx.Article.findById(created.id).lean();
    expect(stored).toMatchObject({ title: 'new', content: 'new body' });
    expect(stored!.updated_at.getTime()).toBeGreaterThan(stored!.created_at.getTime());
  });

  it('takes a form body too', async () => {
    await create({ title: 'a', content: 'b' });
    const res = await request(ctx.app).put('/articles/1').type('form').send({ title: 'c', content: 'd' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'c', content: 'd' });
  });

  it('needs both fields (PUT replaces) and changes nothing when one is missing', async () => {
    await create({ title: 'keep', content: 'keep' });
    const res = await request(ctx.app).put('/articles/1').send({ title: 'only' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'content', message: 'is required' }]);
    expect(await ctx.Article.findById(1).lean()).toMatchObject({ title: 'keep', content: 'keep' });
  });

  it('refuses to change the id or timestamps', async () => {
    await create({ title: 'a', content: 'b' });
    const res = await request(ctx.app).put('/articles/1').send({ title: 'a', content: 'b', id: 2, updated_at: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['id', 'updated_at']);
  });

  it('answers 404 for an unknown id and creates nothing', async () => {
    const res = await request(ctx.app).put('/articles/99').send({ title: 'a', content: 'b' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: false, code: 'not_found', message: 'Article 99 not found' });
    expect(await ctx.Article.countDocuments()).toBe(0);
  });

  it('answers 400 for a non-integer id', async () => {
    const res = await request(ctx.app).put('/articles/abc').send({ title: 'a', content: 'b' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'id', message: 'must be a positive whole number' }]);
  });
});

describe('DELETE /articles/:id', () => {
  it('deletes and answers the deleted article; a second delete is 404', async () => {
    const created = (await create({ title: 'gone', content: 'soon' })).body.data;
    await create({ title: 'stays', content: 'here' });
    const res = await request(ctx.app).delete(`/articles/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true, data: created });
    expect(await ctx.Article.findById(created.id).lean()).toBeNull();
    expect(await ctx.Article.countDocuments()).toBe(1);
    const again = await request(ctx.app).delete(`/articles/${created.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ status: false, code: 'not_found' });
  });

  it('lets exactly one of ten concurrent deletes win', async () => {
    await create({ title: 'a', content: 'b' });
    const responses = await Promise.all(Array.from({ length: 10 }, () => request(ctx.app).delete('/articles/1')));
    expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(404)]);
    expect(await ctx.Article.countDocuments()).toBe(0);
  });

  it('answers 400 for a bad id', async () => {
    const res = await request(ctx.app).delete('/articles/1.5');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, code: 'validation_failed' });
  });

  it('never reuses the id of a deleted article', async () => {
    await create({ title: 'a', content: 'b' });
    await request(ctx.app).delete('/articles/1');
    const res = await create({ title: 'c', content: 'd' });
    expect(res.body.data.id).toBe(2);
  });
});
