import { CursorCodec } from '@lib/paging';
import request from 'supertest';
import { setupUsersApp, TEST_CURSOR_SECRET } from './setup-app';

const ctx = setupUsersApp();

const add = (query: string) => request(ctx.app).post(`/users?${query}`);

async function seed(count: number) {
  for (let i = 1; i <= count; i++) await add(`name=user${i}&age=${20 + i}&city=Perth`).expect(200);
}

describe('POST /users', () => {
  it('appends a record from the query and answers it in a one-item data list', async () => {
    const res = await add('name=Alice&age=30.5&city=Sydney');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [{ name: 'Alice', age: 30.5, city: 'Sydney' }] });
    const stored = await ctx.User.find().lean();
    expect(stored).toEqual([{ _id: 1, name: 'Alice', age: 30.5, city: 'Sydney', insert_token: expect.any(String) }]);
  });

  it('keeps values exactly, including case, spaces and encoded characters', async () => {
    const res = await add('name=Zoë%20O%27Brien&age=0&city=san%20Jos%C3%A9');
    expect(res.body.data).toEqual([{ name: "Zoë O'Brien", age: 0, city: 'san José' }]);
  });

  it('allows two records with the same values (it appends)', async () => {
    await add('name=Bob&age=40&city=Hobart').expect(200);
    await add('name=Bob&age=40&city=Hobart').expect(200);
    expect(await ctx.User.countDocuments()).toBe(2);
  });

  it('keeps two identical records apart when the id counter repeats a value (restored counter): each insert knows its own by its token', async () => {
    await add('name=Bob&age=40&city=Hobart').expect(200);
    // the counter goes back (a backup restored): the next insert draws id 1 again
    await ctx.connection.collection('counters').updateOne({ _id: 'users' as never }, { $set: { seq: 0 } });
    const second = await add('name=Bob&age=40&city=Hobart');
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ data: [{ name: 'Bob', age: 40, city: 'Hobart' }] });
    const stored = await ctx.User.find().sort({ _id: 1 }).lean();
    expect(stored.map(({ _id, name, age, city }) => ({ _id, name, age, city }))).toEqual([
      { _id: 1, name: 'Bob', age: 40, city: 'Hobart' },
      { _id: 2, name: 'Bob', age: 40, city: 'Hobart' },
    ]);
    const tokens = (await ctx.connection.collection('users').find().toArray()).map((doc) => doc.insert_token);
    expect(new Set(tokens).size).toBe(2);
    const listed = await request(ctx.app).get('/users').expect(200);
    expect(listed.body.data).toEqual([
      { name: 'Bob', age: 40, city: 'Hobart' },
      { name: 'Bob', age: 40, city: 'Hobart' },
    ]);
  });

  it.each([
    ['age=30&city=Sydney', ['name'], 'is required'],
    ['name=A&city=Sydney', ['age'], 'is required'],
    ['name=A&age=30', ['city'], 'is required'],
    ['', ['name', 'age', 'city'], 'is required'],
    ['name=&age=30&city=Sydney', ['name'], 'must not be empty'],
    ['name=%20%20&age=30&city=Sydney', ['name'], 'must not be empty'],
    ['name=A&age=&city=Sydney', ['age'], 'decimal number'],
    ['name=A&age=abc&city=Sydney', ['age'], 'decimal number'],
    ['name=A&age=-1&city=Sydney', ['age'], 'decimal number'],
    ['name=A&age=1e2&city=Sydney', ['age'], 'decimal number'],
    ['name=A&age=30.&city=Sydney', ['age'], 'decimal number'],
    ['name=A&age=151&city=Sydney', ['age'], 'at most 150'],
    ['name=A&age=30&city=', ['city'], 'must not be empty'],
    ['name=A&name=B&age=30&city=Sydney', ['name'], 'expected string'],
    ['name=A&age=30&city=Sydney&country=AU', ['country'], 'not an accepted parameter'],
    [`name=${'x'.repeat(101)}&age=30&city=Sydney`, ['name'], 'at most 100'],
  ])('rejects ?%s with 400 naming %j, storing nothing', async (query, fields, message) => {
    const res = await add(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual([...fields].sort());
    expect(res.body.error.fields[0].message).toContain(message);
    expect(await ctx.User.countDocuments()).toBe(0);
  });

  it('takes the parameters from the query only: a JSON body alone is a 400', async () => {
    const res = await request(ctx.app).post('/users').send({ name: 'A', age: 30, city: 'Sydney' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('name: is required; age: is required; city: is required');
    expect(await ctx.User.countDocuments()).toBe(0);
  });

  it('rejects operator-shaped parameter names', async () => {
    const res = await add('name[$ne]=x&age=30&city=Sydney');
    expect(res.status).toBe(400);
    expect(await ctx.User.countDocuments()).toBe(0);
  });

  it('gives 50 parallel appends 50 stored records in distinct positions', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => add(`name=u${i}&age=${i}&city=C`)));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const stored = await ctx.User.find().lean();
    expect(new Set(stored.map((u) => u._id)).size).toBe(50);
    expect(new Set(stored.map((u) => u.name)).size).toBe(50);
  });
});

describe('GET /users', () => {
  it('answers an empty list', async () => {
    const res = await request(ctx.app).get('/users');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], has_more: false });
    expect(res.headers.link).toBeUndefined();
  });

  it('lists records in the order they were added, with exactly the three fields', async () => {
    await add('name=First&age=1.5&city=A').expect(200);
    await add('name=Second&age=2&city=B').expect(200);
    const res = await request(ctx.app).get('/users');
    expect(res.body).toEqual({
      data: [
        { name: 'First', age: 1.5, city: 'A' },
        { name: 'Second', age: 2, city: 'B' },
      ],
      has_more: false,
    });
  });

  it('never truncates silently: a capped page says so and links the next one, down to the last page', async () => {
    await seed(7);
    const names: string[] = [];
    let url: string | undefined = '/users?limit=3';
    let pages = 0;
    while (url) {
      const res = await request(ctx.app).get(url);
      expect(res.status).toBe(200);
      pages++;
      names.push(...res.body.data.map((u: { name: string }) => u.name));
      if (res.body.has_more) {
        expect(res.body.next_cursor).toEqual(expect.any(String));
        expect(res.headers.link).toContain('rel="next"');
        url = `/users?limit=3&cursor=${encodeURIComponent(res.body.next_cursor)}`;
        expect(res.headers.link).toBe(`<${url}>; rel="next"`);
      } else {
        expect(res.body.next_cursor).toBeUndefined();
        url = undefined;
      }
    }
    expect(pages).toBe(3);
    expect(names).toEqual(['user1', 'user2', 'user3', 'user4', 'user5', 'user6', 'user7']);
  });

  it('has no next page when the last page is exactly full', async () => {
    await seed(3);
    const res = await request(ctx.app).get('/users?limit=3');
    expect(res.body.data).toHaveLength(3);
    expect(res.body.has_more).toBe(false);
  });

  it('keeps a cursor stable while records are added', async () => {
    await seed(4);
    const first = await request(ctx.app).get('/users?limit=2');
    await add('name=late&age=9&city=X').expect(200);
    const second = await request(ctx.app).get(`/users?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body.data.map((u: { name: string }) => u.name)).toEqual(['user3', 'user4']);
    expect(second.body.has_more).toBe(true);
  });

  it('pages 100 at a time by default', async () => {
    await ctx.User.insertMany(Array.from({ length: 101 }, (_, i) => ({ _id: i + 1, name: `n${i}`, age: 1, city: 'C' })));
    const res = await request(ctx.app).get('/users');
    expect(res.body.data).toHaveLength(100);
    expect(res.body.has_more).toBe(true);
  });

  it.each([
    ['cursor=garbage', 'cursor'],
    ['cursor=', 'cursor'],
    [`cursor=${encodeURIComponent(new CursorCodec('another-secret-entirely').encode({ k: [1], o: '_id:1' }, 'users'))}`, 'cursor'],
    [`cursor=${encodeURIComponent(new CursorCodec(TEST_CURSOR_SECRET).encode({ k: [1], o: '_id:1' }, 'articles'))}`, 'cursor'],
    [`cursor=${encodeURIComponent(new CursorCodec(TEST_CURSOR_SECRET).encode({ k: [-5] }, 'users'))}`, 'cursor'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=ten', 'limit'],
    ['offset=3', 'offset'],
  ])('rejects ?%s with 400 naming %s', async (query, field) => {
    const res = await request(ctx.app).get(`/users?${query}`);
    expect(res.status).toBe(400);
    const named = res.body.error.fields?.map((f: { field: string }) => f.field) ?? [];
    expect(named).toContain(field);
  });

  it('rejects a tampered cursor', async () => {
    await seed(3);
    const { next_cursor } = (await request(ctx.app).get('/users?limit=1')).body;
    const [body, signature] = next_cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ k: [2], o: '_id:1' })).toString('base64url');
    for (const cursor of [`${forged}.${signature}`, `${body}.${signature.slice(0, -2)}AA`]) {
      const res = await request(ctx.app).get(`/users?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_cursor');
    }
  });
});

describe('other paths and methods', () => {
  it('answers 404 JSON for any other path', async () => {
    for (const path of ['/', '/user', '/users/1', '/Users']) {
      const res = await request(ctx.app).get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 'not_found', message: `No route for GET ${path}` } });
    }
  });

  it('answers 405 for other methods on /users', async () => {
    const res = await request(ctx.app).delete('/users');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect(res.body.error.code).toBe('method_not_allowed');
  });

  it('describes both routes in /openapi.json', async () => {
    const res = await request(ctx.app).get('/openapi.json');
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths['/users']).sort()).toEqual(['get', 'post']);
    expect(res.body.paths['/users'].post.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`).sort()).toEqual([
      'query:age',
      'query:city',
      'query:name',
    ]);
  });

  it('answers /healthz and /readyz', async () => {
    await request(ctx.app).get('/healthz').expect(200, { status: 'ok' });
    await request(ctx.app).get('/readyz').expect(200, { status: 'ready' });
  });
});
