import request from 'supertest';
import { create as parseXml } from 'xmlbuilder2';
import { company, person, setupCrmApp, type TestUser } from './setup-app';
import { expectError } from './expectations';

/** C1 (GET /dev/api/contacts): media types, order, count and cursor, paging, isolation. */
const ctx = setupCrmApp();

let ann: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
});

/** Creates `n` persons one after another; answers their bodies in creation order. */
async function createPersons(user: TestUser, n: number, prefix = 'P') {
  const bodies = [];
  for (let i = 0; i < n; i++) {
    const res = await ctx.as(user).post('/dev/api/contacts').send(person(`${prefix}${i}`));
    expect(res.status).toBe(200);
    bodies.push(res.body);
  }
  return bodies;
}

const list = (user: TestUser, query = '') => ctx.as(user).get(`/dev/api/contacts${query}`);

/** Every page from the first, following the cursor of each page's last item. */
async function allPages(user: TestUser, pageSize: number, between?: (page: number) => Promise<void>) {
  const pages: Record<string, unknown>[][] = [];
  let cursor: string | undefined;
  do {
    const res = await list(user, `?page_size=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    pages.push(res.body);
    cursor = res.body[res.body.length - 1].cursor;
    if (between) await between(pages.length);
  } while (cursor && pages.length < 50);
  return pages;
}

const strip = ({ count: _count, cursor: _cursor, ...contact }: Record<string, unknown>) => contact;

describe('C1: empty', () => {
  it('answers 204 with an empty body when the account has no contacts, in any media type', async () => {
    const zed = await ctx.user('other', 'zed@other.test');
    await createPersons(zed, 2);
    const json = await list(ann);
    expect(json.status).toBe(204);
    expect(json.text).toBe('');
    const xml = await request(ctx.app).get('/dev/api/contacts').set('Authorization', ann.auth);
    expect(xml.status).toBe(204);
    expect(xml.text).toBe('');
  });
});

describe('C1: media types', () => {
  it('answers XML when Accept is absent: root contacts, contact elements, repeated tags and properties, count and cursor', async () => {
    const [first] = await createPersons(ann, 1);
    const second = (await ctx.as(ann).post('/dev/api/contacts').send(person('Bea', 'bea@x.test', { tags: ['Lead', 'VIP'] }))).body;
    await ctx.as(ann).post('/dev/api/contacts').send(company('Acme'));

    const res = await request(ctx.app).get('/dev/api/contacts?page_size=2').set('Authorization', ann.auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><contacts><contact><id>\d+<\/id>/);
    expect(res.text).toContain('<tags>Lead</tags><tags>VIP</tags>');
    expect(res.text).toContain('<properties><type>SYSTEM</type><name>first_name</name><value>Bea</value></properties><properties><type>SYSTEM</type><name>email</name>');
    const xml = parseXml(res.text).end({ format: 'object' }) as unknown as { contacts: { contact: Record<string, unknown>[] } };
    expect(Object.keys(xml)).toEqual(['contacts']);
    const items = xml.contacts.contact;
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ id: String(first.id), type: 'PERSON', count: '3' });
    expect(items[0]).not.toHaveProperty('cursor');
    expect(items[1]).toMatchObject({
      id: String(second.id),
      tags: ['Lead', 'VIP'],
      properties: [
        { type: 'SYSTEM', name: 'first_name', value: 'Bea' },
        { type: 'SYSTEM', name: 'email', subtype: 'work', value: 'bea@x.test' },
      ],
      cursor: expect.any(String),
      domainUser: expect.objectContaining({ email: ann.email, password: '**********' }),
    });
    expect(items[1]).not.toHaveProperty('count');

    // the XML cursor leads to the same next page as the JSON one
    const next = await list(ann, `?page_size=2&cursor=${encodeURIComponent(items[1].cursor as string)}`);
    expect(next.status).toBe(200);
    expect(next.body.map((c: { type: string }) => c.type)).toEqual(['COMPANY']);
  });

  it('answers XML for Accept: application/xml too', async () => {
    await createPersons(ann, 1);
    const res = await ctx.as(ann).get('/dev/api/contacts').set('Accept', 'application/xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.text).toMatch(/<contacts><contact>.*<count>1<\/count><\/contact><\/contacts>$/);
  });

  it('answers JSON for Accept: application/json, each item a full contact', async () => {
    const [a] = await createPersons(ann, 1);
    const b = (await ctx.as(ann).post('/dev/api/contacts').send(company('Acme'))).body;
    const res = await list(ann);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual([
      { ...a, count: 2 },
      { ...b },
    ]);
  });

  it('answers 406 with the error body for Accept: text/plain', async () => {
    await createPersons(ann, 1);
    const res = await ctx.as(ann).get('/dev/api/contacts').set('Accept', 'text/plain');
    expectError(res, 406, 'not_acceptable');
  });
});

describe('C1: order, count and cursor', () => {
  it('lists in creation order (ids ascending), persons and companies alike', async () => {
    const bodies = [];
    for (let i = 0; i < 5; i++) {
      const res = await ctx.as(ann).post('/dev/api/contacts').send(i % 2 ? company(`C${i}`) : person(`P${i}`));
      bodies.push(res.body);
    }
    const res = await list(ann);
    expect(res.body.map((c: { id: number }) => c.id)).toEqual(bodies.map((b) => b.id));
    const ids = res.body.map((c: { id: number }) => c.id);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
  });

  it('puts count (all matches) on the first item only, and a cursor on the last item only when another page exists', async () => {
    await createPersons(ann, 4);
    const firstPage = await list(ann, '?page_size=3');
    expect(firstPage.body).toHaveLength(3);
    expect(firstPage.body[0].count).toBe(4);
    expect(firstPage.body[2].cursor).toEqual(expect.any(String));
    expect(firstPage.body[1]).not.toHaveProperty('count');
    expect(firstPage.body[1]).not.toHaveProperty('cursor');
    expect(firstPage.body[0]).not.toHaveProperty('cursor');
    expect(firstPage.body[2]).not.toHaveProperty('count');

    const exact = await list(ann, '?page_size=4');
    expect(exact.body).toHaveLength(4);
    expect(exact.body[0].count).toBe(4);
    expect(exact.body[3]).not.toHaveProperty('cursor');

    const single = await list(ann, '?page_size=1');
    expect(single.body).toHaveLength(1);
    expect(single.body[0]).toMatchObject({ count: 4, cursor: expect.any(String) });
  });

  it('pages to the last page visiting every contact exactly once (7 contacts, pages of 3: 3/3/1)', async () => {
    const created = await createPersons(ann, 7);
    const pages = await allPages(ann, 3);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    for (const page of pages) expect(page[0].count).toBe(7);
    expect(pages[2][0]).not.toHaveProperty('cursor');
    expect(pages.flat().map(strip)).toEqual(created);
  });

  it('stays stable while contacts are created between pages: each contact once, in creation order', async () => {
    const created = await createPersons(ann, 5);
    const pages = await allPages(ann, 2, async (page) => {
      if (page <= 2) created.push(...(await createPersons(ann, 1, `New${page}-`)));
    });
    const seen = pages.flat().map((c) => c.id);
    expect(seen).toEqual(created.map((c) => c.id));
    expect(new Set(seen).size).toBe(7);
    expect(pages[0][0].count).toBe(5);
    expect(pages[pages.length - 1].at(-1)).not.toHaveProperty('cursor');
  });

  it('skips contacts deleted between pages without repeating or losing the others', async () => {
    const created = await createPersons(ann, 6);
    const first = await list(ann, '?page_size=3');
    await ctx.as(ann).delete(`/dev/api/contacts/${created[2].id}`);
    await ctx.as(ann).delete(`/dev/api/contacts/${created[3].id}`);
    const second = await list(ann, `?page_size=3&cursor=${encodeURIComponent(first.body[2].cursor)}`);
    expect(second.body.map((c: { id: number }) => c.id)).toEqual([created[4].id, created[5].id]);
    expect(second.body[0].count).toBe(4);
  });

  it('uses a default page size of 20 (25 contacts: 20, then 5)', async () => {
    await Promise.all(Array.from({ length: 5 }, (_, batch) => createPersons(ann, 5, `B${batch}-`)));
    const stored = await ctx.Contact.find({ account: ann.account }).sort({ created_time: 1, _id: 1 }).lean();
    const first = await list(ann);
    expect(first.body).toHaveLength(20);
    expect(first.body[0].count).toBe(25);
    const second = await list(ann, `?cursor=${encodeURIComponent(first.body[19].cursor)}`);
    expect(second.body).toHaveLength(5);
    expect(second.body[4]).not.toHaveProperty('cursor');
    expect([...first.body, ...second.body].map((c: { id: number }) => c.id)).toEqual(stored.map((c) => c._id));
  });

  it('accepts page_size 200 (the most a page holds; the byte budget may end it earlier)', async () => {
    await createPersons(ann, 2);
    const res = await list(ann, '?page_size=200');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
  });
});

describe('C1: bad paging input', () => {
  it.each(['0', '201', 'abc', '', '-1', '1.5', '1e2'])('refuses page_size=%p with a 400 naming page_size', async (value) => {
    await createPersons(ann, 1);
    expectError(await list(ann, `?page_size=${value}`), 400, 'validation_failed', ['page_size']);
  });

  it('an empty cursor= is the first page, as if it were left out', async () => {
    await createPersons(ann, 3);
    const first = await list(ann, '?page_size=2');
    const empty = await list(ann, '?page_size=2&cursor=');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(first.body);
    expect(empty.body).toHaveLength(2);
  });

  it('refuses a malformed cursor with invalid_cursor', async () => {
    await createPersons(ann, 1);
    for (const cursor of ['abc', 'a.b.c', '.', 'x'.repeat(1000)]) {
      expectError(await list(ann, `?cursor=${cursor}`), 400, 'invalid_cursor', ['cursor']);
    }
  });

  it('refuses a tampered cursor with invalid_cursor', async () => {
    await createPersons(ann, 3);
    const cursor: string = (await list(ann, '?page_size=1')).body[0].cursor;
    const [body, signature] = cursor.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    const forged = `${Buffer.from(JSON.stringify({ ...payload, id: payload.id + 1 })).toString('base64url')}.${signature}`;
    const flipped = `${body}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    for (const bad of [forged, flipped, `${cursor}x`, `${cursor}.x`]) {
      expectError(await list(ann, `?page_size=1&cursor=${encodeURIComponent(bad)}`), 400, 'invalid_cursor', ['cursor']);
    }
    // the genuine cursor still works
    expect((await list(ann, `?page_size=1&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
  });

  it('refuses a query parameter the list does not take', async () => {
    await createPersons(ann, 1);
    expectError(await list(ann, '?pageSize=2'), 400, 'validation_failed', ['pageSize']);
  });
});

describe('C1: accounts are isolated', () => {
  it("never shows another account's contacts or counts them", async () => {
    const zed = await ctx.user('other', 'zed@other.test');
    const mine = await createPersons(ann, 2, 'Mine');
    const theirs = await createPersons(zed, 3, 'Theirs');
    const a = await list(ann);
    const z = await list(zed);
    expect(a.body.map(strip)).toEqual(mine);
    expect(a.body[0].count).toBe(2);
    expect(z.body.map(strip)).toEqual(theirs);
    expect(z.body[0].count).toBe(3);
  });

  it('refuses a cursor issued to another account', async () => {
    const zed = await ctx.user('other', 'zed@other.test');
    await createPersons(ann, 3);
    await createPersons(zed, 3);
    const theirCursor: string = (await list(zed, '?page_size=1')).body[0].cursor;
    expectError(await list(ann, `?page_size=1&cursor=${encodeURIComponent(theirCursor)}`), 400, 'invalid_cursor', ['cursor']);
  });

  it('accepts a cursor issued to another user of the same account', async () => {
    const bob = await ctx.user('acme', 'bob@acme.test');
    await createPersons(ann, 3);
    const cursor: string = (await list(ann, '?page_size=1')).body[0].cursor;
    const res = await list(bob, `?page_size=1&cursor=${encodeURIComponent(cursor)}`);
    expect(res.status).toBe(200);
    expect(res.body[0].properties[0].value).toBe('P1');
  });
});
