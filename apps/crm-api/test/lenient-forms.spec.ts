import { expectError, storedState } from './expectations';
import { company, person, setupCrmApp, type TestUser } from './setup-app';

/**
 * The two leniencies the official clients need — bracketed unquoted form arrays (`tags=[Java_mail]`,
 * `email_ids=[addr]`) and quoted enum values in a query (`type='PERSON'`) — and proof that neither
 * lets a bad value through: every item and value is still checked, and a refusal writes nothing.
 */
const ctx = setupCrmApp();
const stored = () => storedState(ctx.connection);
const FORM = 'application/x-www-form-urlencoded';

let ann: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
});

async function create(body: object): Promise<number> {
  const res = await ctx.as(ann).post('/dev/api/contacts').send(body);
  expect(res.status).toBe(200);
  return res.body.id;
}

describe('bracketed form arrays', () => {
  it('C7 and C8 read tags=[Java_mail] and tags=[a, b c] (Java List.toString)', async () => {
    const id = await create(person('Jo', 'jo@x.test'));
    const add = (tags: string) => ctx.as(ann).post('/dev/api/contacts/email/tags/add').set('Content-Type', FORM).send(`email=jo%40x.test&tags=${tags}`);
    expect((await add('[Java_mail]')).status).toBe(204);
    expect((await add('[Lead, Q3 2026]')).status).toBe(204);
    expect((await ctx.as(ann).get(`/dev/api/contacts/${id}`)).body.tags).toEqual(['Java_mail', 'Lead', 'Q3 2026']);
    const removed = await ctx.as(ann).post('/dev/api/contacts/email/tags/delete').set('Content-Type', FORM).send('email=jo%40x.test&tags=[Lead,Java_mail]');
    expect(removed.status).toBe(204);
    expect((await ctx.as(ann).get(`/dev/api/contacts/${id}`)).body.tags).toEqual(['Q3 2026']);
  });

  it('a bad item, an ambiguous list or a half-quoted list is a 400 naming the field, and nothing is written', async () => {
    await create(person('Jo', 'jo@x.test'));
    const before = await stored();
    const cases: Array<[string, string]> = [
      ['[Java_mail, 9lives]', 'tags.1'],
      ['[Java$mail]', 'tags.0'],
      ['[Lead,,VIP]', 'tags'],
      ['[ Lead]', 'tags'],
      ['[Lead, "VIP"]', 'tags'],
      ['[Lead', 'tags'],
      ['[]', 'tags'],
      [`[${Array.from({ length: 101 }, (_, i) => `T${i}`).join(', ')}]`, 'tags'],
    ];
    for (const [tags, field] of cases) {
      const res = await ctx.as(ann).post('/dev/api/contacts/email/tags/add').set('Content-Type', FORM).send(`email=jo%40x.test&tags=${encodeURIComponent(tags)}`);
      expectError(res, 400, 'validation_failed', [field]);
    }
    expect(await stored()).toEqual(before);
  });

  it('C6 reads email_ids=[a@x.test, b@x.test] and still refuses a malformed email in it', async () => {
    const [a, b] = [await create(person('A', 'a@x.test')), await create(person('B', 'b@x.test'))];
    const found = await ctx.as(ann).post('/dev/api/contacts/search/email').set('Content-Type', FORM).send('email_ids=[a@x.test, b@x.test]');
    expect(found.status).toBe(200);
    expect(found.body.map((c: { id: number }) => c.id)).toEqual([a, b]);
    expectError(await ctx.as(ann).post('/dev/api/contacts/search/email').set('Content-Type', FORM).send('email_ids=[a@x.test, b@]'), 400, 'validation_failed', ['email_ids[1]']);
  });
});

describe('quoted enum values in a query', () => {
  it("search reads type='COMPANY' and type=\"PERSON\"; the value inside stays case-sensitive", async () => {
    const co = await create(company('Zeta'));
    const pe = await create(person('Zed'));
    expect((await ctx.as(ann).get("/dev/api/search?q=Ze&type='COMPANY'")).body.map((c: { id: number }) => c.id)).toEqual([co]);
    expect((await ctx.as(ann).get('/dev/api/search?q=Ze&type="PERSON"')).body.map((c: { id: number }) => c.id)).toEqual([pe]);
    for (const type of ["'company'", "'COMPANY", "''COMPANY''", "'COMPANY '"]) {
      expectError(await ctx.as(ann).get('/dev/api/search').query({ q: 'Ze', type }), 400, 'validation_failed', ['type']);
    }
  });

  it("T5 reads type='CALL' and refuses type='call'", async () => {
    const task = await ctx.as(ann).post('/dev/api/tasks').send({ subject: 'S', type: 'CALL', priority_type: 'LOW', due: 1_800_000_000 });
    expect(task.status).toBe(200);
    const res = await ctx.as(ann).get("/dev/api/tasks/based?type='CALL'");
    expect(res.status).toBe(200);
    expect(res.body.map((t: { id: number }) => t.id)).toEqual([task.body.id]);
    expectError(await ctx.as(ann).get("/dev/api/tasks/based?type='call'"), 400, 'validation_failed', ['type']);
  });
});
