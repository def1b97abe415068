import { createHash } from 'node:crypto';
import { person, setupCrmApp, type TestUser } from './setup-app';

const ctx = setupCrmApp();

const USER_KEYS = ['id', 'domain', 'email', 'is_admin', 'is_account_owner', 'is_disabled', 'name', 'password', 'info_json_string', 'hashedString'];

/** No secret of any of these users appears in a response, and no api_key_hash field either. */
function expectNoSecrets(text: string, users: TestUser[]) {
  expect(text).not.toMatch(/api_key/i);
  for (const u of users) {
    expect(text).not.toContain(u.apiKey);
    expect(text).not.toContain(createHash('sha256').update(u.apiKey).digest('hex'));
  }
}

let ann: TestUser, bea: TestUser, ozzy: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  bea = await ctx.user('acme', 'bea@acme.test', { admin: true });
  ozzy = await ctx.user('other', 'ozzy@other.test');
});

describe('GET /dev/api/users', () => {
  it("lists every user of the caller's account only, passwords masked, no key material", async () => {
    await ctx.accounts().setDisabled(bea.email, true);
    const res = await ctx.as(ann).get('/dev/api/users');
    expect(res.status).toBe(200);
    expect(res.body.map((u: { email: string }) => u.email)).toEqual(['ann@acme.test', 'bea@acme.test']);
    for (const u of res.body) expect(Object.keys(u).sort()).toEqual([...USER_KEYS].sort());
    expect(res.body[0]).toMatchObject({ id: ann.id, domain: 'acme', is_admin: false, is_account_owner: false, is_disabled: false, password: '**********' });
    expect(res.body[1]).toMatchObject({ id: bea.id, domain: 'acme', is_admin: true, is_disabled: true, password: '**********' });
    const info = JSON.parse(res.body[0].info_json_string);
    expect(info).toEqual({ logged_in_time: expect.any(Number), created_time: expect.any(Number) });
    expect(info.logged_in_time).toBeGreaterThanOrEqual(info.created_time);
    expectNoSecrets(res.text, [ann, bea, ozzy]);

    const other = await ctx.as(ozzy).get('/dev/api/users');
    expect(other.body.map((u: { email: string }) => u.email)).toEqual(['ozzy@other.test']);
    expectNoSecrets(other.text, [ann, bea, ozzy]);
  });

  it('answers XML when asked: <users> with repeated <user>', async () => {
    const res = await ctx.as(ann).get('/dev/api/users').set('Accept', 'application/xml');
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/xml');
    expect(res.text).toMatch(/^<\?xml[^>]*\?><users><user><id>\d+<\/id><domain>acme<\/domain><email>ann@acme\.test<\/email>/);
    expect(res.text.match(/<user>/g)).toHaveLength(2);
    expect(res.text).toContain('<password>**********</password>');
    expect(res.text).not.toContain('ozzy@other.test');
    expectNoSecrets(res.text, [ann, bea, ozzy]);
  });

  it('406 for an Accept that names neither JSON nor XML', async () => {
    const res = await ctx.as(ann).get('/dev/api/users').set('Accept', 'text/html');
    expect(res.status).toBe(406);
    expect(res.body.error).toMatchObject({ status: 406, code: 'not_acceptable' });
  });
});

describe('GET /dev/api/users/current-user', () => {
  it('is the calling user', async () => {
    const res = await ctx.as(bea).get('/dev/api/users/current-user');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...USER_KEYS].sort());
    expect(res.body).toMatchObject({ id: bea.id, email: 'bea@acme.test', domain: 'acme', is_admin: true, password: '**********' });
    expectNoSecrets(res.text, [ann, bea, ozzy]);
    expect((await ctx.as(ozzy).get('/dev/api/users/current-user')).body).toMatchObject({ id: ozzy.id, domain: 'other' });
  });

  it('answers XML when asked: <user>', async () => {
    const res = await ctx.as(ann).get('/dev/api/users/current-user').set('Accept', 'application/xml');
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/xml');
    expect(res.text).toMatch(/<user><id>\d+<\/id><domain>acme<\/domain><email>ann@acme\.test<\/email>.*<password>\*{10}<\/password>.*<\/user>$/);
    expectNoSecrets(res.text, [ann, bea, ozzy]);
  });
});

it('no response that carries a domainUser leaks key material (JSON and XML)', async () => {
  const created = await ctx.as(ann).post('/dev/api/contacts').send(person('Al', 'al@x.test', { tags: ['t'] }));
  const id = created.body.id;
  const texts = [created.text];
  for (const accept of ['application/json', 'application/xml']) {
    const calls = [
      ctx.as(ann).get('/dev/api/contacts').set('Accept', accept),
      ctx.as(ann).get(`/dev/api/contacts/${id}`).set('Accept', accept),
      ctx.as(ann).get('/dev/api/contacts/search/email/al@x.test').set('Accept', accept),
      ctx.as(ann).post('/dev/api/contacts/search/email').set('Accept', accept).send({ email_ids: ['al@x.test'] }),
      ctx.as(ann).post('/dev/api/contacts/add-score').set('Accept', accept).type('form').send({ email: 'al@x.test', score: '1' }),
      ctx.as(ann).post('/dev/api/contacts/change-owner').set('Accept', accept).send({ owner_email: bea.email, contact_id: id }),
      ctx.as(ann).get('/dev/api/search?q=Al').set('Accept', accept),
      ctx.as(ann).put('/dev/api/contacts').set('Accept', accept).send({ id, star_value: 2 }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(200);
      texts.push(res.text);
    }
  }
  for (const text of texts) {
    expect(text).toMatch(/domainUser/);
    expectNoSecrets(text, [ann, bea, ozzy]);
  }
});
