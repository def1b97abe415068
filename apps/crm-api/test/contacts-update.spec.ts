import { company, person, setupCrmApp, type TestUser } from './setup-app';
import { expectError, storedState } from './expectations';

/** C4 (PUT /dev/api/contacts): merge rules, campaigns, emails, round trips and concurrency. */
const ctx = setupCrmApp();
const stored = () => storedState(ctx.connection);

/** Polls until `check` holds (at most 2 s). */
async function waitFor(check: () => Promise<boolean>) {
  for (const started = Date.now(); !(await check()); ) {
    if (Date.now() - started > 2000) throw new Error('waitFor: timed out');
    await sleep(5);
  }
}

const sys = (name: string, value?: string, subtype?: string) => ({ type: 'SYSTEM', name, ...(subtype !== undefined && { subtype }), ...(value !== undefined && { value }) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let ann: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
});

async function createAs(user: TestUser, body: object) {
  const res = await ctx.as(user).post('/dev/api/contacts').send(body);
  expect(res.status).toBe(200);
  return res.body;
}

const put = (body: object, user = ann) => ctx.as(user).put('/dev/api/contacts').send(body);

describe('C4: merging', () => {
  it('replaces the sent fields and keeps the unsent ones', async () => {
    const acme = await createAs(ann, company('Acme'));
    const created = await createAs(
      ann,
      person('Ann', 'ann@x.test', { tags: ['Lead', 'VIP'], lead_score: 10, star_value: 2, contact_company_id: acme.id, widget_properties: '{"w":1}' }),
    );
    const res = await put({ id: created.id, star_value: 4 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, star_value: 4, updated_time: expect.any(Number) });
    const doc = await ctx.Contact.findById(created.id).lean();
    expect(doc).toMatchObject({ star_value: 4, lead_score: 10, contact_company_id: acme.id, widget_properties: '{"w":1}', emails: ['ann@x.test'], rev: 1 });
    expect(Object.keys(doc!.tag_times)).toEqual(['Lead', 'VIP']);
    expect(doc!.properties).toEqual(created.properties);
  });

  it('replaces the property list as a whole', async () => {
    const created = await createAs(ann, { properties: [sys('first_name', 'Ann'), sys('email', 'ann@x.test', 'work'), sys('phone', '123', 'mobile')] });
    const properties = [sys('first_name', 'Annie'), sys('title', 'CTO')];
    const res = await put({ id: created.id, properties });
    expect(res.status).toBe(200);
    expect(res.body.properties).toEqual(properties);
    const doc = await ctx.Contact.findById(created.id).lean();
    expect(doc!.properties).toEqual(properties);
    expect(doc!.emails).toEqual([]);
    expect(await ctx.EmailClaim.countDocuments()).toBe(0);
  });

  it('replaces the tag list; kept tags keep their time, new tags get a new one; updated_time moves, created_time does not', async () => {
    const created = await createAs(ann, person('Ann', undefined, { tags: ['Lead', 'VIP'] }));
    const times = JSON.parse(created.tags_with_time_json);
    await sleep(1100); // times in seconds: let a second pass
    const res = await put({ id: created.id, tags: ['VIP', 'Customer'] });
    expect(res.status).toBe(200);
    expect(res.body.tags).toEqual(['VIP', 'Customer']);
    const next = JSON.parse(res.body.tags_with_time_json);
    expect(Object.keys(next)).toEqual(['VIP', 'Customer']);
    expect(next.VIP).toBe(times.VIP);
    expect(next.Customer).toBeGreaterThanOrEqual(times.VIP + 1000);
    expect(res.body.created_time).toBe(created.created_time);
    expect(res.body.updated_time).toBeGreaterThan(created.updated_time);
    const doc = await ctx.Contact.findById(created.id).lean();
    expect(doc!.tag_times).toEqual(next);
    expect(doc).toMatchObject({ created_time: created.created_time, updated_time: res.body.updated_time });
  });

  it('clears the tags with an empty list', async () => {
    const created = await createAs(ann, person('Ann', undefined, { tags: ['Lead'] }));
    const res = await put({ id: created.id, tags: [] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tags: [], tags_with_time_json: '{}' });
    expect((await ctx.Contact.findById(created.id).lean())!.tag_times).toEqual({});
  });

  it('accepts the id as a digit string', async () => {
    const created = await createAs(ann, person('Ann'));
    const res = await put({ id: String(created.id), lead_score: 3 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, lead_score: 3 });
  });

  it('keeps the same type when it is sent again', async () => {
    const created = await createAs(ann, company('Acme'));
    const res = await put({ id: created.id, type: 'COMPANY', properties: [sys('name', 'Acme 2')] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'COMPANY', properties: [sys('name', 'Acme 2')] });
  });

  it('ignores read-only fields sent on update', async () => {
    const created = await createAs(ann, person('Ann', undefined, { tags: ['Lead'] }));
    const bob = await ctx.user('acme', 'bob@acme.test');
    const res = await put({
      id: created.id,
      created_time: 1,
      updated_time: 2,
      tags_with_time_json: '{"Lead":1}',
      domainUser: { id: bob.id },
      count: 5,
      cursor: 'x',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, updated_time: expect.any(Number) });
    expect((await ctx.Contact.findById(created.id).lean())!.owner).toBe(ann.id);
  });

  it('links, relinks and unlinks a company', async () => {
    const acme = await createAs(ann, company('Acme'));
    const beta = await createAs(ann, company('Beta'));
    const created = await createAs(ann, person('Ann'));
    const linked = await put({ id: created.id, contact_company_id: acme.id });
    expect(linked.body.contact_company_id).toBe(acme.id);
    const relinked = await put({ id: created.id, contact_company_id: String(beta.id) });
    expect(relinked.body.contact_company_id).toBe(beta.id);
    const unlinked = await put({ id: created.id, contact_company_id: null });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body).not.toHaveProperty('contact_company_id');
    expect((await ctx.Contact.findById(created.id).lean())!.contact_company_id).toBeNull();
  });
});

describe('C4: refusals leave the contact unchanged', () => {
  async function refuses(body: (id: number) => object, fields: string[], setup: () => Promise<{ id: number }> = () => createAs(ann, person('Ann', 'ann@x.test', { tags: ['Lead'] }))) {
    const { id } = await setup();
    const before = await stored();
    const res = await put(body(id));
    expectError(res, 400, 'validation_failed', fields);
    expect(await stored()).toEqual(before);
  }

  it('refuses a type change (person to company)', () => refuses((id) => ({ id, type: 'COMPANY', properties: [sys('name', 'X')], tags: [] }), ['type']));
  it('refuses a type change (company to person)', () => refuses((id) => ({ id, type: 'PERSON', properties: [sys('first_name', 'X')] }), ['type'], () => createAs(ann, company('Acme'))));
  it('refuses a type in another case', () => refuses((id) => ({ id, type: 'person' }), ['type']));
  it('refuses a merge that loses first_name', () => refuses((id) => ({ id, properties: [sys('last_name', 'Smith')] }), ['properties']));
  it('refuses an empty first_name', () => refuses((id) => ({ id, properties: [sys('first_name', '')] }), ['properties']));
  it('refuses tags on a company', () => refuses((id) => ({ id, tags: ['VIP'] }), ['tags'], () => createAs(ann, company('Acme'))));
  it('refuses a lead score on a company', () => refuses((id) => ({ id, lead_score: 3 }), ['lead_score'], () => createAs(ann, company('Acme'))));
  it('refuses a company that loses its name', () => refuses((id) => ({ id, properties: [sys('website', 'x', 'URL')] }), ['properties'], () => createAs(ann, company('Acme'))));
  it('refuses a bad tag', () => refuses((id) => ({ id, tags: ['Lead', '9lives'] }), ['tags.1']));
  it('refuses star_value 6', () => refuses((id) => ({ id, star_value: 6 }), ['star_value']));
  it('refuses a negative lead score', () => refuses((id) => ({ id, lead_score: -5 }), ['lead_score']));
  it('refuses a bad subtype', () => refuses((id) => ({ id, properties: [sys('first_name', 'A'), sys('email', 'a@x.test', 'Work')] }), ['properties.1.subtype']));
  it('refuses a bad address', () => refuses((id) => ({ id, properties: [sys('first_name', 'A'), sys('address', '{"street":"x"}', 'home')] }), ['properties.1.value']));
  it('refuses an unknown field', () => refuses((id) => ({ id, Lead_score: 3 }), ['Lead_score']));
  it('refuses a company id that names a person', () => refuses((id) => ({ id, contact_company_id: id }), ['contact_company_id']));
  it('refuses a company id that names nothing', () => refuses((id) => ({ id, contact_company_id: id + 1000 }), ['contact_company_id']));
  it("refuses another account's company", async () => {
    const zed = await ctx.user('other', 'zed@other.test');
    const theirs = await createAs(zed, company('Other'));
    await refuses((id) => ({ id, contact_company_id: theirs.id }), ['contact_company_id']);
  });
  it('refuses an id that is not a positive whole number', async () => {
    for (const id of ['abc', 0, -1, 1.5, '01', '']) await refuses(() => ({ id, lead_score: 1 }), ['id'], () => createAs(ann, person('Ann')));
  });
});

describe('C4: unknown and foreign ids', () => {
  it('answers 404 with the error body for an unknown id, and creates nothing', async () => {
    const before = await stored();
    const res = await put({ id: 987654, ...person('Ann') });
    expectError(res, 404, 'contact_not_found');
    expect(res.body.error.message).toContain('987654');
    expect(await stored()).toEqual(before);
  });

  it("answers another account's id exactly like a missing id, and leaves that contact alone", async () => {
    const zed = await ctx.user('other', 'zed@other.test');
    const theirs = await createAs(zed, person('Zed', 'zed@x.test'));
    const missingId = theirs.id + 1000;
    const before = await stored();
    const foreign = await put({ id: theirs.id, ...person('Hacked', 'hacked@x.test'), star_value: 5 });
    const missing = await put({ id: missingId, ...person('Hacked', 'hacked@x.test'), star_value: 5 });
    expectError(foreign, 404, 'contact_not_found');
    expect({ ...foreign.body, error: { ...foreign.body.error, message: foreign.body.error.message.replace(String(theirs.id), '#') } }).toEqual({
      ...missing.body,
      error: { ...missing.body.error, message: missing.body.error.message.replace(String(missingId), '#') },
    });
    expect(await stored()).toEqual(before);
    expect((await ctx.as(zed).get(`/dev/api/contacts/${theirs.id}`)).body).toEqual(theirs);
  });

  it('creates a contact when the body has no id', async () => {
    const res = await put(person('Ann', 'ann@x.test', { tags: ['Lead'] }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: expect.any(Number), type: 'PERSON', tags: ['Lead'], domainUser: expect.objectContaining({ id: ann.id }) });
    expect(await ctx.Contact.countDocuments()).toBe(1);
    expect((await ctx.Account.findById(ann.account).lean())!.contact_count).toBe(1);
    expect((await ctx.EmailClaim.findById(`${ann.account}:ann@x.test`).lean())!.contact).toBe(res.body.id);
  });

  it('applies the create rules when the body has no id', async () => {
    await createAs(ann, person('Ann', 'ann@x.test'));
    const before = await stored();
    expectError(await put(person('Other', 'ann@x.test')), 400, 'duplicate_email', ['properties']);
    expectError(await put({ properties: [sys('last_name', 'X')] }), 400, 'validation_failed', ['properties']);
    expect(await stored()).toEqual(before);
  });
});

describe('C4: person emails', () => {
  it("refuses an email another person has (400 duplicate_email), leaving the contact and the claims unchanged", async () => {
    const a = await createAs(ann, person('Ann', 'ann@x.test'));
    await createAs(ann, person('Bob', 'bob@x.test'));
    const before = await stored();
    const res = await put({ id: a.id, properties: [sys('first_name', 'Ann'), sys('email', 'bob@x.test', 'work')] });
    expectError(res, 400, 'duplicate_email', ['properties']);
    expect(res.body.error.message).toContain('bob@x.test');
    expect(await stored()).toEqual(before);
  });

  it('frees the old email when a person changes email', async () => {
    const a = await createAs(ann, person('Ann', 'ann@x.test'));
    const res = await put({ id: a.id, properties: [sys('first_name', 'Ann'), sys('email', 'ann@new.test', 'work')] });
    expect(res.status).toBe(200);
    expect(await ctx.EmailClaim.find().lean()).toEqual([expect.objectContaining({ _id: `${ann.account}:ann@new.test`, contact: a.id })]);
    expect((await ctx.Contact.findById(a.id).lean())!.emails).toEqual(['ann@new.test']);
    const taker = await ctx.as(ann).post('/dev/api/contacts').send(person('Newcomer', 'ann@x.test'));
    expect(taker.status).toBe(200);
    expect((await ctx.EmailClaim.findById(`${ann.account}:ann@x.test`).lean())!.contact).toBe(taker.body.id);
    expectError(await ctx.as(ann).post('/dev/api/contacts').send(person('Late', 'ann@new.test')), 400, 'duplicate_email', ['properties']);
  });

  it('keeps its own email when the properties are sent again, and may take a company email', async () => {
    await createAs(ann, company('Acme', { properties: [sys('name', 'Acme'), sys('email', 'info@acme.test', 'work')] }));
    const a = await createAs(ann, person('Ann', 'ann@x.test'));
    const res = await put({ id: a.id, properties: [sys('first_name', 'Ann'), sys('email', 'ann@x.test', 'work'), sys('email', 'info@acme.test', 'personal')] });
    expect(res.status).toBe(200);
    expect((await ctx.EmailClaim.find().sort({ _id: 1 }).lean()).map((c) => [c._id, c.contact])).toEqual([
      [`${ann.account}:ann@x.test`, a.id],
      [`${ann.account}:info@acme.test`, a.id],
    ]);
  });

  it('treats an email in another letter case as a different email', async () => {
    const a = await createAs(ann, person('Ann', 'ann@x.test'));
    await createAs(ann, person('Bob', 'bob@x.test'));
    const res = await put({ id: a.id, properties: [sys('first_name', 'Ann'), sys('email', 'Bob@x.test', 'work')] });
    expect(res.status).toBe(200);
  });
});

describe('C4: campaign lists', () => {
  const campaigns = {
    campaignStatus: [{ start_time: 1700000000, end_time: 1700003600, campaign_id: '42', campaign_name: 'Spring', status: '42-DONE' }],
    unsubscribeStatus: [{ campaign_id: '42', unsubscribeType: 'CURRENT' }],
    emailBounceStatus: [{ email: 'ann@x.test', emailBounceType: 'HARD_BOUNCE', time: 1700000100, campaign_id: '42' }],
  };

  /** A person with campaigns; the API cannot make those, so they are seeded in the database. */
  async function withCampaigns() {
    const created = await createAs(ann, person('Ann', 'ann@x.test'));
    await ctx.Contact.updateOne({ _id: created.id }, { $set: campaigns });
    const fetched = await ctx.as(ann).get(`/dev/api/contacts/${created.id}`);
    expect(fetched.body).toMatchObject(campaigns);
    return fetched.body;
  }

  it('refuses an update without the three lists, naming them', async () => {
    const contact = await withCampaigns();
    const before = await stored();
    const res = await put({ id: contact.id, lead_score: 3 });
    expectError(res, 400, 'validation_failed', ['campaignStatus', 'unsubscribeStatus', 'emailBounceStatus']);
    expect(await stored()).toEqual(before);
  });

  it('refuses an update with only some of the lists', async () => {
    const contact = await withCampaigns();
    const before = await stored();
    const res = await put({ id: contact.id, lead_score: 3, campaignStatus: contact.campaignStatus, unsubscribeStatus: contact.unsubscribeStatus });
    expectError(res, 400, 'validation_failed', ['emailBounceStatus']);
    expect(await stored()).toEqual(before);
  });

  it('refuses altered lists', async () => {
    const contact = await withCampaigns();
    const before = await stored();
    const altered = [{ ...contact.campaignStatus[0], status: '42-ACTIVE' }];
    const res = await put({ id: contact.id, lead_score: 3, ...campaigns, campaignStatus: altered });
    expectError(res, 400, 'validation_failed', ['campaignStatus']);
    const emptied = await put({ id: contact.id, lead_score: 3, ...campaigns, unsubscribeStatus: [] });
    expectError(emptied, 400, 'validation_failed', ['unsubscribeStatus']);
    const extra = await put({ id: contact.id, lead_score: 3, ...campaigns, emailBounceStatus: [...campaigns.emailBounceStatus, { email: 'b@x.test' }] });
    expectError(extra, 400, 'validation_failed', ['emailBounceStatus']);
    expect(await stored()).toEqual(before);
  });

  it('accepts the update when the lists are sent exactly as retrieved, and keeps them', async () => {
    const contact = await withCampaigns();
    const res = await put({
      id: contact.id,
      lead_score: 3,
      campaignStatus: contact.campaignStatus,
      unsubscribeStatus: contact.unsubscribeStatus,
      emailBounceStatus: contact.emailBounceStatus,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ lead_score: 3, ...campaigns });
    expect(await ctx.Contact.findById(contact.id).lean()).toMatchObject({ lead_score: 3, ...campaigns });
  });

  it('refuses non-empty lists on a contact without campaigns, and accepts empty ones', async () => {
    const created = await createAs(ann, person('Ann', 'ann@x.test'));
    const before = await stored();
    for (const [list, value] of Object.entries(campaigns)) {
      expectError(await put({ id: created.id, [list]: value }), 400, 'validation_failed', [list]);
    }
    expect(await stored()).toEqual(before);
    const res = await put({ id: created.id, lead_score: 1, campaignStatus: [], unsubscribeStatus: [], emailBounceStatus: [] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ lead_score: 1, campaignStatus: [], unsubscribeStatus: [], emailBounceStatus: [] });
  });
});

describe('C4: a fetched contact sent back unchanged', () => {
  it('round-trips the C2 body of a person with everything set, including one with campaigns', async () => {
    const acme = await createAs(ann, company('Acme'));
    const created = await createAs(
      ann,
      person('Ann', 'ann@x.test', {
        tags: ['Lead', 'VIP'],
        lead_score: 7,
        star_value: 3,
        contact_company_id: acme.id,
        widget_properties: '{"w":true}',
      }),
    );
    await ctx.Contact.updateOne({ _id: created.id }, { $set: { campaignStatus: [{ campaign_id: '1', campaign_name: 'C', status: '1-DONE', start_time: 1, end_time: 2 }] } });
    const fetched = (await ctx.as(ann).get(`/dev/api/contacts/${created.id}`)).body;
    expect(fetched.domainUser).toBeDefined();
    const before = await ctx.Contact.findById(created.id).lean();

    const res = await put(fetched);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...fetched, updated_time: expect.any(Number) });
    const after = await ctx.Contact.findById(created.id).lean();
    expect(after).toEqual({ ...before, updated_time: expect.any(Number), rev: before!.rev + 1 });
  });

  it('round-trips a company', async () => {
    const created = await createAs(ann, company('Acme'));
    const fetched = (await ctx.as(ann).get(`/dev/api/contacts/${created.id}`)).body;
    const res = await put(fetched);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...fetched, updated_time: expect.any(Number) });
  });

  it('round-trips list items carrying count and cursor', async () => {
    await createAs(ann, person('Ann', 'ann@x.test', { tags: ['Lead'] }));
    await createAs(ann, person('Bob', 'bob@x.test'));
    const page = await ctx.as(ann).get('/dev/api/contacts?page_size=1');
    expect(page.status).toBe(200);
    const [item] = page.body;
    expect(item).toMatchObject({ count: 2, cursor: expect.any(String) });
    const res = await put(item);
    expect(res.status).toBe(200);
    const { count: _count, cursor: _cursor, ...contact } = item;
    expect(res.body).toEqual({ ...contact, updated_time: expect.any(Number) });
  });
});

describe('C4: concurrency', () => {
  it('runs edits of one contact one at a time: a second edit waits while the first is held at its write', async () => {
    const a = await createAs(ann, person('Ann', 'old@x.test'));
    // Interleaving control: the first write with lead_score 1 waits until released.
    const updateOne = ctx.Contact.updateOne.bind(ctx.Contact);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const spy = jest.spyOn(ctx.Contact, 'updateOne').mockImplementation(((filter: never, update: { $set?: { lead_score?: number } }, ...rest: never[]) => {
      if (update?.$set?.lead_score === 1) return gate.then(() => updateOne(filter, update, ...rest));
      return updateOne(filter, update, ...rest);
    }) as never);
    const body = (lead_score: number) => ({ id: a.id, lead_score, properties: [sys('first_name', 'Ann'), sys('email', 'new@x.test', 'work')] });
    try {
      const first = put(body(1)).then((res) => res); // takes the lease, claims new@x.test, waits at its write
      await waitFor(async () => (await ctx.EmailClaim.exists({ _id: `${ann.account}:new@x.test` })) !== null);
      let secondDone = false;
      const second = put(body(2)).then((res) => {
        secondDone = true;
        return res;
      });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(secondDone).toBe(false); // waiting for the lease
      expect(await ctx.Contact.findById(a.id).lean()).toMatchObject({ lead_score: 0, emails: ['old@x.test'] });
      open();
      expect((await first).status).toBe(200);
      expect((await second).status).toBe(200);
    } finally {
      open();
      spy.mockRestore();
    }
    const stored = await ctx.Contact.findById(a.id).lean();
    expect(stored).toMatchObject({ lead_score: 2, emails: ['new@x.test'] });
    expect(stored).not.toHaveProperty('lock');
    expect(await ctx.EmailClaim.find().lean()).toEqual([expect.objectContaining({ _id: `${ann.account}:new@x.test`, contact: a.id })]);
    expectError(await ctx.as(ann).post('/dev/api/contacts').send(person('Bob', 'new@x.test')), 400, 'duplicate_email', ['properties']);
    expect((await ctx.as(ann).post('/dev/api/contacts').send(person('Bob', 'old@x.test'))).status).toBe(200);
  });

  it('takes over the expired lease of a crashed edit', async () => {
    const a = await createAs(ann, person('Ann'));
    await ctx.Contact.updateOne({ _id: a.id }, { $set: { lock: 'crashed-edit', lock_until: Date.now() - 1 } });
    const res = await put({ id: a.id, star_value: 5 });
    expect(res.status).toBe(200);
    const stored = await ctx.Contact.findById(a.id).lean();
    expect(stored).toMatchObject({ star_value: 5 });
    expect(stored).not.toHaveProperty('lock');
  });

  it('lets exactly one of several persons take the same new email concurrently', async () => {
    const persons = [];
    for (let i = 0; i < 6; i++) persons.push(await createAs(ann, person(`P${i}`, `p${i}@x.test`)));
    const results = await Promise.all(persons.map((p, i) => put({ id: p.id, properties: [sys('first_name', `P${i}`), sys('email', 'wanted@x.test', 'work')] })));
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 200)) expectError(res, 400, 'duplicate_email', ['properties']);
    expect(await ctx.Contact.countDocuments({ emails: 'wanted@x.test' })).toBe(1);
    const claims = await ctx.EmailClaim.find().lean();
    expect(claims).toHaveLength(6);
    expect(claims.find((c) => c._id === `${ann.account}:wanted@x.test`)!.contact).toBe(winners[0].body.id);
  });

  it('loses nothing when PUTs of different fields race tag adds', async () => {
    const created = await createAs(ann, person('Ann', 'ann@x.test', { tags: ['Start'] }));
    const tags = Array.from({ length: 10 }, (_, i) => `T${i}`);
    const properties = [sys('first_name', 'Ann'), sys('email', 'ann@x.test', 'work'), sys('phone', '555', 'mobile')];
    const results = await Promise.all([
      put({ id: created.id, lead_score: 7 }),
      put({ id: created.id, star_value: 4 }),
      put({ id: created.id, widget_properties: '{"w":2}' }),
      put({ id: created.id, properties }),
      ...tags.map((tag) =>
        ctx
          .as(ann)
          .post('/dev/api/contacts/email/tags/add')
          .type('form')
          .send({ email: 'ann@x.test', tags: JSON.stringify([tag]) }),
      ),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, ...tags.map(() => 204)]);
    const final = (await ctx.as(ann).get(`/dev/api/contacts/${created.id}`)).body;
    expect(final).toMatchObject({ lead_score: 7, star_value: 4, widget_properties: '{"w":2}', properties });
    expect([...final.tags].sort()).toEqual(['Start', ...tags].sort());
    expect(Object.keys(JSON.parse(final.tags_with_time_json)).sort()).toEqual(['Start', ...tags].sort());
    const doc = await ctx.Contact.findById(created.id).lean();
    expect(doc!.rev).toBe(4 + tags.length);
  });
});
