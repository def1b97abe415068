import { person, setupCrmApp, type TestUser } from './setup-app';

const ctx = setupCrmApp();

async function create(user: TestUser, body: object): Promise<{ id: number }> {
  const res = await ctx.as(user).post('/dev/api/contacts').send(body);
  expect(res.status).toBe(200);
  return res.body;
}

const range = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const statuses = (responses: { status: number }[]) => [...new Set(responses.map((r) => r.status))];

let ann: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
});

const addTags = (tags: string[]) => ctx.as(ann).post('/dev/api/contacts/email/tags/add').type('form').send({ email: 'al@x.test', tags: JSON.stringify(tags) });
const deleteTags = (tags: string[]) => ctx.as(ann).post('/dev/api/contacts/email/tags/delete').type('form').send({ email: 'al@x.test', tags: JSON.stringify(tags) });
const addScore = (score: number) => ctx.as(ann).post('/dev/api/contacts/add-score').type('form').send({ email: 'al@x.test', score: String(score) });
const addProperty = (name: string, value: string) =>
  ctx.as(ann).post('/dev/api/contacts/add/property?email=al%40x.test').send({ type: 'CUSTOM', name, value });

describe('atomic calls under concurrency', () => {
  it('100 concurrent C7 adds of distinct tags: all 100 stored, each with its time', async () => {
    const al = await create(ann, person('Al', 'al@x.test'));
    const tags = range(100, 'tag');
    const responses = await Promise.all(tags.map((tag) => addTags([tag])));
    expect(statuses(responses)).toEqual([204]);
    const doc = await ctx.Contact.findById(al.id).lean();
    expect(Object.keys(doc!.tag_times).sort()).toEqual([...tags].sort());
    const read = await ctx.as(ann).get(`/dev/api/contacts/${al.id}`);
    expect(read.body.tags).toHaveLength(100);
    expect(Object.keys(JSON.parse(read.body.tags_with_time_json))).toHaveLength(100);
  });

  it('100 concurrent adds of the same tag keep one entry with one time', async () => {
    const al = await create(ann, person('Al', 'al@x.test'));
    const responses = await Promise.all(range(100, '').map(() => addTags(['same'])));
    expect(statuses(responses)).toEqual([204]);
    const doc = await ctx.Contact.findById(al.id).lean();
    expect(Object.keys(doc!.tag_times)).toEqual(['same']);
  });

  it('100 concurrent C9 +1: lead_score is exactly 100', async () => {
    const al = await create(ann, person('Al', 'al@x.test'));
    const responses = await Promise.all(range(100, '').map(() => addScore(1)));
    expect(statuses(responses)).toEqual([200]);
    expect((await ctx.Contact.findById(al.id).lean())!.lead_score).toBe(100);
    responses.forEach((r) => expect(r.body.lead_score).toBeGreaterThanOrEqual(1));
  });

  it('50 concurrent +1 mixed with 50 concurrent -1 from 50: exactly 50', async () => {
    const al = await create(ann, person('Al', 'al@x.test', { lead_score: 50 }));
    const deltas = range(100, '').map((_, i) => (i % 2 ? 1 : -1));
    const responses = await Promise.all(deltas.map((d) => addScore(d)));
    expect(statuses(responses)).toEqual([200]);
    expect((await ctx.Contact.findById(al.id).lean())!.lead_score).toBe(50);
  });

  it('concurrent -1 calls never take the score below 0: exactly the available ones succeed', async () => {
    const al = await create(ann, person('Al', 'al@x.test', { lead_score: 10 }));
    const responses = await Promise.all(range(30, '').map(() => addScore(-1)));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(10);
    expect(responses.filter((r) => r.status === 400)).toHaveLength(20);
    expect((await ctx.Contact.findById(al.id).lean())!.lead_score).toBe(0);
  });

  it("concurrent tag adds and deletes don't lose unrelated tags", async () => {
    const keep = range(10, 'keep');
    const doomed = range(30, 'gone');
    const al = await create(ann, person('Al', 'al@x.test', { tags: [...keep, ...doomed] }));
    const fresh = range(40, 'new');
    const calls = [
      ...fresh.map((tag) => () => addTags([tag])),
      ...doomed.map((tag) => () => deleteTags([tag, 'never_there'])),
      ...fresh.slice(0, 10).map((tag, i) => () => ctx.as(ann).put('/dev/api/contacts/edit/tags').send({ id: al.id, tags: [tag, `put${i}`] })),
      ...range(10, '').map(() => () => addScore(1)),
    ];
    const responses = await Promise.all(calls.map((call) => call()));
    expect(statuses(responses).sort()).toEqual([200, 204]);
    const doc = await ctx.Contact.findById(al.id).lean();
    const expected = [...keep, ...fresh, ...range(10, 'put')];
    expect(Object.keys(doc!.tag_times).sort()).toEqual(expected.sort());
    expect(doc!.lead_score).toBe(10);
  });

  it('concurrent C11 adds of distinct property names: all present, nothing else lost', async () => {
    const al = await create(ann, person('Al', 'al@x.test', { tags: ['t0'] }));
    const names = range(25, 'prop');
    const calls = [...names.map((name) => () => addProperty(name, `v-${name}`)), ...range(10, 'tag').map((tag) => () => addTags([tag])), () => addScore(3)];
    const responses = await Promise.all(calls.map((call) => call()));
    expect(statuses(responses).sort()).toEqual([200, 204]);
    const doc = await ctx.Contact.findById(al.id).lean();
    const custom = doc!.properties.filter((p) => p.type === 'CUSTOM');
    expect(custom.map((p) => p.name).sort()).toEqual([...names].sort());
    custom.forEach((p) => expect(p.value).toBe(`v-${p.name}`));
    expect(doc!.properties.filter((p) => p.type === 'SYSTEM').map((p) => p.name)).toEqual(['first_name', 'email']);
    expect(Object.keys(doc!.tag_times).sort()).toEqual(['t0', ...range(10, 'tag')].sort());
    expect(doc!.lead_score).toBe(3);
  });

  it('concurrent C11 changes of the email to one free address: one wins, the others are duplicate_email', async () => {
    const contacts = [];
    for (let i = 0; i < 5; i++) contacts.push(await create(ann, person(`P${i}`, `p${i}@x.test`)));
    const responses = await Promise.all(
      contacts.map((_, i) =>
        ctx
          .as(ann)
          .post(`/dev/api/contacts/add/property?email=p${i}%40x.test`)
          .send({ type: 'SYSTEM', name: 'email', subtype: 'work', value: 'wanted@x.test' }),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of responses.filter((x) => x.status !== 200)) expect(r.body.error.code).toBe('duplicate_email');
    expect(await ctx.Contact.countDocuments({ emails: 'wanted@x.test' })).toBe(1);
    const winner = responses.find((r) => r.status === 200)!.body.id;
    expect(await ctx.EmailClaim.findById(`${ann.account}:wanted@x.test`).lean()).toMatchObject({ contact: winner });
  });
});
