import { company, person, setupCrmApp, type TestUser } from './setup-app';
import { expectRefused, storedState } from './expectations';

const ctx = setupCrmApp();
const stored = () => storedState(ctx.connection);

type Contact = { id: number; count?: number; cursor?: string } & Record<string, unknown>;

async function create(user: TestUser, body: object): Promise<Contact> {
  const res = await ctx.as(user).post('/dev/api/contacts').send(body);
  expect(res.status).toBe(200);
  return res.body;
}

const fieldsOf = (res: { body: { error?: { fields?: { field: string }[] } } }) => (res.body.error?.fields ?? []).map((f) => f.field);
const ids = (items: { id: number }[]) => items.map((x) => x.id);

/** Follows cursors to the last page; checks count on the first item and cursor only on the last of each page. */
async function allPages(fetch: (cursor?: string) => Promise<{ status: number; body: Contact[] }>, expectedTotal: number): Promise<Contact[]> {
  const seen: Contact[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const res = await fetch(cursor);
    expect(res.status).toBe(200);
    expect(res.body[0].count).toBe(expectedTotal);
    res.body.slice(1).forEach((item) => expect(item.count).toBeUndefined());
    res.body.slice(0, -1).forEach((item) => expect(item.cursor).toBeUndefined());
    seen.push(...res.body);
    cursor = res.body[res.body.length - 1].cursor;
    if (!cursor) return seen;
  }
  throw new Error('paging did not end');
}

let ann: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
});

describe('GET /dev/api/contacts/search/email/{email}', () => {
  it('200 with the contact, 204 when no one has it (case-sensitive), 400 when malformed', async () => {
    const al = await create(ann, person('Al', 'al@x.test'));
    const found = await ctx.as(ann).get('/dev/api/contacts/search/email/al@x.test');
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: al.id, type: 'PERSON', properties: al.properties, domainUser: { email: 'ann@acme.test' } });

    for (const email of ['AL@x.test', 'nobody@x.test']) {
      const res = await ctx.as(ann).get(`/dev/api/contacts/search/email/${email}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
    }
    const bad = await ctx.as(ann).get('/dev/api/contacts/search/email/not-an-email');
    expectRefused(bad, 400, 'validation_failed');
    expect(fieldsOf(bad)).toEqual(['email']);
  });

  it('answers XML when asked', async () => {
    const al = await create(ann, person('Al', 'al@x.test'));
    const res = await ctx.as(ann).get('/dev/api/contacts/search/email/al@x.test').set('Accept', 'application/xml');
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/xml');
    expect(res.text).toContain(`<contact><id>${al.id}</id><type>PERSON</type>`);
    expect(res.text).toContain('<password>**********</password>');
  });
});

describe('PUT /dev/api/contacts/edit-properties', () => {
  const path = '/dev/api/contacts/edit-properties';

  it('changes only the sent properties; other fields and properties stay', async () => {
    const al = await create(ann, {
      ...person('Al', 'al@x.test'),
      properties: [
        { type: 'SYSTEM', name: 'first_name', value: 'Al' },
        { type: 'SYSTEM', name: 'last_name', value: 'Smith' },
        { type: 'SYSTEM', name: 'email', subtype: 'work', value: 'al@x.test' },
      ],
      tags: ['t'],
      lead_score: 3,
      star_value: 4,
    });
    const res = await ctx
      .as(ann)
      .put(path)
      .send({
        id: al.id,
        properties: [
          { type: 'SYSTEM', name: 'last_name', value: 'Jones' },
          { type: 'CUSTOM', name: 'shoe size', value: '44' },
        ],
      });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: al.id, tags: ['t'], lead_score: 3, star_value: 4 });
    expect(res.body.properties).toEqual([
      { type: 'SYSTEM', name: 'first_name', value: 'Al' },
      { type: 'SYSTEM', name: 'last_name', value: 'Jones' },
      { type: 'SYSTEM', name: 'email', subtype: 'work', value: 'al@x.test' },
      { type: 'CUSTOM', name: 'shoe size', value: '44' },
    ]);
    expect((await ctx.Contact.findById(al.id).lean())!.properties).toHaveLength(4);
  });

  it('404 for an unknown id; 400 for bad input or a broken rule; nothing stored', async () => {
    const al = await create(ann, person('Al', 'al@x.test'));
    await create(ann, person('Bo', 'bo@x.test'));
    const snapshot = await stored();
    expectRefused(await ctx.as(ann).put(path).send({ id: 99999, properties: [{ type: 'CUSTOM', name: 'x', value: 'y' }] }), 404, 'contact_not_found');
    expectRefused(await ctx.as(ann).put(path).send({ id: al.id, properties: [] }), 400, 'validation_failed');
    expectRefused(await ctx.as(ann).put(path).send({ id: al.id }), 400, 'validation_failed');
    expectRefused(await ctx.as(ann).put(path).send({ properties: [{ type: 'CUSTOM', name: 'x', value: 'y' }] }), 400, 'validation_failed');
    expectRefused(await ctx.as(ann).put(path).send({ id: al.id, properties: [{ type: 'SYSTEM', name: 'first_name', value: '' }] }), 400, 'validation_failed');
    expectRefused(await ctx.as(ann).put(path).send({ id: al.id, properties: [{ type: 'SYSTEM', name: 'phone', subtype: 'pager', value: '1' }] }), 400, 'validation_failed');
    expectRefused(
      await ctx
        .as(ann)
        .put(path)
        .send({ id: al.id, properties: [{ type: 'SYSTEM', name: 'email', subtype: 'work', value: 'bo@x.test' }] }),
      400,
      'duplicate_email',
    );
    expect(await stored()).toEqual(snapshot);
  });
});

describe('PUT /dev/api/contacts/edit/tags and delete/tags', () => {
  it('edit/tags adds tags (first time kept) and answers the contact', async () => {
    const al = await create(ann, person('Al', 'al@x.test', { tags: ['a'] }));
    const firstA = JSON.parse(al.tags_with_time_json as string).a;
    const res = await ctx
      .as(ann)
      .put('/dev/api/contacts/edit/tags')
      .send({ id: String(al.id), tags: ['a', 'b'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: al.id, tags: ['a', 'b'] });
    const times = JSON.parse(res.body.tags_with_time_json);
    expect(times.a).toBe(firstA);
    expect(times.b).toBeGreaterThanOrEqual(firstA);
  });

  it('delete/tags removes present tags, ignores absent ones, answers the contact', async () => {
    const al = await create(ann, person('Al', 'al@x.test', { tags: ['a', 'b', 'c'] }));
    const res = await ctx
      .as(ann)
      .put('/dev/api/contacts/delete/tags')
      .send({ id: al.id, tags: ['b', 'zzz'] });
    expect(res.status).toBe(200);
    expect(res.body.tags).toEqual(['a', 'c']);
    expect(Object.keys(JSON.parse(res.body.tags_with_time_json))).toEqual(['a', 'c']);
    expect(Object.keys((await ctx.Contact.findById(al.id).lean())!.tag_times)).toEqual(['a', 'c']);
  });

  it('404 for an unknown id, 400 for a company, a bad tag or an empty list; nothing stored', async () => {
    const al = await create(ann, person('Al', 'al@x.test', { tags: ['a'] }));
    const acme = await create(ann, company('Acme'));
    const snapshot = await stored();
    for (const path of ['/dev/api/contacts/edit/tags', '/dev/api/contacts/delete/tags']) {
      expectRefused(await ctx.as(ann).put(path).send({ id: 99999, tags: ['a'] }), 404, 'contact_not_found');
      const companyRes = await ctx.as(ann).put(path).send({ id: acme.id, tags: ['a'] });
      expectRefused(companyRes, 400);
      expect(companyRes.body.error.message).toMatch(/compan/i);
      expectRefused(await ctx.as(ann).put(path).send({ id: al.id, tags: ['1a'] }), 400, 'validation_failed');
      expectRefused(await ctx.as(ann).put(path).send({ id: al.id, tags: [] }), 400, 'validation_failed');
      expectRefused(await ctx.as(ann).put(path).send({ id: 'x', tags: ['a'] }), 400, 'validation_failed');
    }
    expect(await stored()).toEqual(snapshot);
  });
});

describe('PUT /dev/api/contacts/edit/lead-score and edit/add-star', () => {
  it('sets the lead score', async () => {
    const al = await create(ann, person('Al', 'al@x.test', { lead_score: 3 }));
    const res = await ctx.as(ann).put('/dev/api/contacts/edit/lead-score').send({ id: al.id, lead_score: 42 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: al.id, lead_score: 42 });
    expect((await ctx.Contact.findById(al.id).lean())!.lead_score).toBe(42);
    const zero = await ctx.as(ann).put('/dev/api/contacts/edit/lead-score').send({ id: al.id, lead_score: '0' });
    expect(zero.status).toBe(200);
    expect(zero.body.lead_score).toBe(0);
  });

  it('sets the star value 0-5', async () => {
    const al = await create(ann, person('Al', 'al@x.test'));
    for (const star of [5, 0, 3]) {
      const res = await ctx.as(ann).put('/dev/api/contacts/edit/add-star').send({ id: al.id, star_value: star });
      expect(res.status).toBe(200);
      expect(res.body.star_value).toBe(star);
    }
    expect((await ctx.Contact.findById(al.id).lean())!.star_value).toBe(3);
  });

  it('400 for out-of-range values or a non-zero value on a company; 404 for an unknown id; nothing stored', async () => {
    const al = await create(ann, person('Al', 'al@x.test', { lead_score: 1, star_value: 1 }));
    const acme = await create(ann, company('Acme'));
    const snapshot = await stored();
    for (const star_value of [6, -1, 2.5, 'x']) {
      const res = await ctx.as(ann).put('/dev/api/contacts/edit/add-star').send({ id: al.id, star_value });
      expectRefused(res, 400, 'validation_failed');
      expect(fieldsOf(res)).toEqual(['star_value']);
    }
    for (const lead_score of [-1, 1.5, 'x', null]) {
      const res = await ctx.as(ann).put('/dev/api/contacts/edit/lead-score').send({ id: al.id, lead_score });
      expectRefused(res, 400, 'validation_failed');
      expect(fieldsOf(res)).toEqual(['lead_score']);
    }
    const star = await ctx.as(ann).put('/dev/api/contacts/edit/add-star').send({ id: acme.id, star_value: 2 });
    expectRefused(star, 400);
    expect(star.body.error.message).toMatch(/compan/i);
    const score = await ctx.as(ann).put('/dev/api/contacts/edit/lead-score').send({ id: acme.id, lead_score: 2 });
    expectRefused(score, 400);
    expectRefused(await ctx.as(ann).put('/dev/api/contacts/edit/add-star').send({ id: 99999, star_value: 2 }), 404, 'contact_not_found');
    expectRefused(await ctx.as(ann).put('/dev/api/contacts/edit/lead-score').send({ id: 99999, lead_score: 2 }), 404, 'contact_not_found');
    expect(await stored()).toEqual(snapshot);
  });

  it('a company may be set to 0', async () => {
    const acme = await create(ann, company('Acme'));
    const res = await ctx.as(ann).put('/dev/api/contacts/edit/add-star').send({ id: acme.id, star_value: 0 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: acme.id, type: 'COMPANY', star_value: 0 });
  });
});

describe('GET /dev/api/contacts/list/count', () => {
  it('counts persons and companies of the account', async () => {
    const empty = await ctx.as(ann).get('/dev/api/contacts/list/count');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ count: 0 });
    await create(ann, person('Al'));
    await create(ann, person('Bo'));
    const acme = await create(ann, company('Acme'));
    expect((await ctx.as(ann).get('/dev/api/contacts/list/count')).body).toEqual({ count: 3 });
    expect((await ctx.as(ann).delete(`/dev/api/contacts/${acme.id}`)).status).toBe(204);
    expect((await ctx.as(ann).get('/dev/api/contacts/list/count')).body).toEqual({ count: 2 });
    const xml = await ctx.as(ann).get('/dev/api/contacts/list/count').set('Accept', 'application/xml');
    expect(xml.type).toBe('application/xml');
    expect(xml.text).toContain('<count>2</count>');
  });
});

describe('GET /dev/api/search', () => {
  const search = (query: string) => ctx.as(ann).get(`/dev/api/search?${query}`);
  let annLee: Contact, annabel: Contact, bob: Contact, annex: Contact, carl: Contact;

  beforeEach(async () => {
    annLee = await create(ann, {
      properties: [
        { type: 'SYSTEM', name: 'first_name', value: 'Ann' },
        { type: 'SYSTEM', name: 'last_name', value: 'Lee' },
        { type: 'SYSTEM', name: 'email', subtype: 'work', value: 'lee@x.test' },
      ],
    });
    annabel = await create(ann, person('Annabel', 'bel@x.test'));
    bob = await create(ann, {
      properties: [
        { type: 'SYSTEM', name: 'first_name', value: 'Bob' },
        { type: 'SYSTEM', name: 'last_name', value: 'Annson' },
        { type: 'SYSTEM', name: 'email', subtype: 'work', value: 'bob@x.test' },
      ],
    });
    annex = await create(ann, company('Annex Corp'));
    carl = await create(ann, {
      properties: [
        { type: 'SYSTEM', name: 'first_name', value: 'Carl' },
        { type: 'SYSTEM', name: 'company', value: 'Annex Corp' },
      ],
    });
  });

  it('prefix match on first name, last name, email and company name, in creation order', async () => {
    const res = await search('q=Ann');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([annLee.id, annabel.id, bob.id, annex.id, carl.id]);
    expect(res.body[0].count).toBe(5);
    expect(res.body[4].cursor).toBeUndefined();
    expect(ids((await search('q=Lee')).body)).toEqual([annLee.id]);
    expect(ids((await search('q=bob%40')).body)).toEqual([bob.id]);
    expect(ids((await search('q=Annex')).body)).toEqual([annex.id, carl.id]);
    expect(ids((await search('q=Annab')).body)).toEqual([annabel.id]);
  });

  it('is case-sensitive and a prefix match only; 204 when nothing matches', async () => {
    for (const q of ['ann', 'ANN', 'nn', 'Corp', 'x.test', 'A.n', '(', '.*', '[']) {
      const res = await search(`q=${encodeURIComponent(q)}`);
      expect({ q, status: res.status, text: res.text }).toEqual({ q, status: 204, text: '' });
    }
  });

  it('type filters PERSON or COMPANY; other spellings are a 400', async () => {
    expect(ids((await search('q=Ann&type=PERSON')).body)).toEqual([annLee.id, annabel.id, bob.id, carl.id]);
    expect(ids((await search('q=Ann&type=COMPANY')).body)).toEqual([annex.id]);
    expect((await search('q=Lee&type=COMPANY')).status).toBe(204);
    for (const type of ['person', 'Company', '', 'DEAL']) {
      const res = await search(`q=Ann&type=${type}`);
      expectRefused(res, 400, 'validation_failed');
      expect(fieldsOf(res)).toEqual(['type']);
    }
  });

  it('400 for a missing or blank q, bad page_size or cursor', async () => {
    for (const query of ['', 'q=', 'q=%20%20', 'type=PERSON']) {
      const res = await search(query);
      expectRefused(res, 400, 'validation_failed');
      expect(fieldsOf(res)).toEqual(['q']);
    }
    for (const page_size of ['0', '201', 'x', '-1']) {
      const res = await search(`q=Ann&page_size=${page_size}`);
      expectRefused(res, 400, 'validation_failed');
      expect(fieldsOf(res)).toEqual(['page_size']);
    }
    expectRefused(await search('q=Ann&cursor=garbage'), 400);
  });

  it('pages with count and cursor to the last page; a cursor is bound to its query', async () => {
    const pages: number[][] = [];
    const all = await allPages(async (cursor) => {
      const res = await search(`q=Ann&page_size=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      pages.push(ids(res.body));
      return res;
    }, 5);
    expect(pages).toEqual([[annLee.id, annabel.id], [bob.id, annex.id], [carl.id]]);
    expect(ids(all)).toEqual([annLee.id, annabel.id, bob.id, annex.id, carl.id]);

    const first = await search('q=Ann&page_size=2');
    const cursor = first.body[1].cursor as string;
    expect(typeof cursor).toBe('string');
    expectRefused(await search(`q=Annex&page_size=2&cursor=${encodeURIComponent(cursor)}`), 400);
    expectRefused(await search(`q=Ann&type=PERSON&page_size=2&cursor=${encodeURIComponent(cursor)}`), 400);
  });
});

describe('POST /dev/api/contacts/companies/list', () => {
  const path = '/dev/api/contacts/companies/list';

  it('204 when the account has no companies (persons do not count)', async () => {
    await create(ann, person('Al'));
    const res = await ctx.as(ann).post(path).type('form').send({});
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await ctx.as(ann).post(path)).status).toBe(204);
  });

  it('lists only companies, paged to the last page (form and JSON)', async () => {
    const companies: Contact[] = [];
    for (let i = 0; i < 5; i++) {
      companies.push(await create(ann, company(`Co ${i}`)));
      await create(ann, person(`P ${i}`));
    }
    const viaForm = await allPages(async (cursor) => {
      const res = await ctx
        .as(ann)
        .post(path)
        .type('form')
        .send({ page_size: '2', ...(cursor && { cursor }) });
      expect(res.body.length).toBeLessThanOrEqual(2);
      return res;
    }, 5);
    expect(ids(viaForm)).toEqual(ids(companies));
    viaForm.forEach((c) => expect(c.type).toBe('COMPANY'));

    const viaJson = await allPages((cursor) => ctx.as(ann).post(path).send({ page_size: 3, cursor }), 5);
    expect(ids(viaJson)).toEqual(ids(companies));

    const defaults = await ctx.as(ann).post(path);
    expect(defaults.status).toBe(200);
    expect(ids(defaults.body)).toEqual(ids(companies));
    expect(defaults.body[0].count).toBe(5);
    expect(defaults.body[4].cursor).toBeUndefined();
  });

  it('400 for a bad page_size or cursor, or an unknown field', async () => {
    await create(ann, company('Co'));
    for (const page_size of ['0', '201', 'x', '1.5']) {
      const res = await ctx.as(ann).post(path).type('form').send({ page_size });
      expectRefused(res, 400, 'validation_failed');
      expect(fieldsOf(res)).toEqual(['page_size']);
    }
    expectRefused(await ctx.as(ann).post(path).type('form').send({ cursor: 'abc' }), 400);
    expectRefused(await ctx.as(ann).post(path).send({ type: 'PERSON' }), 400, 'validation_failed');
  });
});

describe('GET /dev/api/contacts/related/{companyId}', () => {
  it('lists the persons of the company, paged; 204 when none', async () => {
    const acme = await create(ann, company('Acme'));
    const beta = await create(ann, company('Beta'));
    const staff: Contact[] = [];
    for (let i = 0; i < 5; i++) {
      staff.push(await create(ann, person(`A ${i}`, undefined, { contact_company_id: acme.id })));
      await create(ann, person(`B ${i}`, undefined, { contact_company_id: i === 0 ? beta.id : null }));
    }
    const all = await allPages(async (cursor) => {
      const res = await ctx.as(ann).get(`/dev/api/contacts/related/${acme.id}?page_size=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.body.length).toBeLessThanOrEqual(2);
      return res;
    }, 5);
    expect(ids(all)).toEqual(ids(staff));
    all.forEach((p) => expect(p).toMatchObject({ type: 'PERSON', contact_company_id: acme.id }));

    const noStaff = await create(ann, company('Gamma'));
    for (const id of [noStaff.id, staff[0].id, 99999]) {
      const res = await ctx.as(ann).get(`/dev/api/contacts/related/${id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
    }
  });

  it('400 for a bad id or page size', async () => {
    for (const path of ['/dev/api/contacts/related/abc', '/dev/api/contacts/related/0', '/dev/api/contacts/related/1?page_size=0']) {
      expectRefused(await ctx.as(ann).get(path), 400, 'validation_failed');
    }
  });
});
