import request, { type Response } from 'supertest';
import { create as parseXml } from 'xmlbuilder2';
import { company, person, setupCrmApp, type TestUser } from './setup-app';
import { expectError, storedState } from './expectations';

/** C2 (GET /dev/api/contacts/{id}) and C5 (DELETE /dev/api/contacts/{id}). */
const ctx = setupCrmApp();
const stored = () => storedState(ctx.connection);

function expectEmpty204(res: Response) {
  expect(res.status).toBe(204);
  expect(res.text).toBe('');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds (at most 2 s). */
/** Waits for `check` (generously: the run's shared database can take seconds on a loaded machine). */
async function waitFor(check: () => boolean) {
  for (const started = Date.now(); !check(); ) {
    if (Date.now() - started > 15_000) throw new Error('waitFor: timed out');
    await sleep(5);
  }
}

/**
 * Interleaving control: the first call of the model method `method` whose arguments match waits
 * until `open()`; `reached` tells when it got there.
 */
/** Holds the first matching write of a contact: `insertOne` (a create, written with the driver) or `updateOne` (an edit, through the model). */
function holdFirst(method: 'insertOne' | 'updateOne', matches: (args: unknown[]) => boolean) {
  const model = (method === 'insertOne' ? ctx.Contact.collection : ctx.Contact) as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = model[method].bind(model);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const state = { reached: false, open: () => open() };
  const spy = jest.spyOn(model, method).mockImplementation((...args: unknown[]) => {
    if (!state.reached && matches(args)) {
      state.reached = true;
      return gate.then(() => original(...args));
    }
    return original(...args);
  });
  return { state, restore: () => (open(), spy.mockRestore()) };
}

/**
 * Sends `send`, and once its write is held at `hold`, ann deletes the company `companyId` (an empty
 * 204); then lets the write go on and returns the answer to `send`.
 */
async function deletedWhileHeld(hold: ReturnType<typeof holdFirst>, companyId: number, send: () => Promise<Response>): Promise<Response> {
  try {
    const sending = send();
    await waitFor(() => hold.state.reached);
    expectEmpty204(await ctx.as(ann).delete(`/dev/api/contacts/${companyId}`));
    hold.state.open();
    return await sending;
  } finally {
    hold.restore();
  }
}

let ann: TestUser;
let zed: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  zed = await ctx.user('other', 'zed@other.test');
});

async function createAs(user: TestUser, body: object) {
  const res = await ctx.as(user).post('/dev/api/contacts').send(body);
  expect(res.status).toBe(200);
  return res.body;
}

const contactCount = async (user: TestUser) => (await ctx.Account.findById(user.account).lean())!.contact_count;

describe('C2: one contact', () => {
  it('answers 200 with the contact exactly as created', async () => {
    const acme = await createAs(ann, company('Acme'));
    const created = await createAs(ann, person('Ann', 'ann@x.test', { tags: ['Lead'], star_value: 2, contact_company_id: acme.id }));
    const res = await ctx.as(ann).get(`/dev/api/contacts/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(created);
    expect(res.body).not.toHaveProperty('count');
    expect(res.body).not.toHaveProperty('cursor');
    expect((await ctx.as(ann).get(`/dev/api/contacts/${acme.id}`)).body).toEqual(acme);
  });

  it('is readable by another user of the same account', async () => {
    const bob = await ctx.user('acme', 'bob@acme.test');
    const created = await createAs(ann, person('Ann'));
    const res = await ctx.as(bob).get(`/dev/api/contacts/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  it('answers JSON when Accept is absent, XML with root contact when asked', async () => {
    const created = await createAs(ann, person('Ann', 'ann@x.test', { tags: ['Lead', 'VIP'] }));
    const plain = await request(ctx.app).get(`/dev/api/contacts/${created.id}`).set('Authorization', ann.auth);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.body).toEqual(created);

    const res = await ctx.as(ann).get(`/dev/api/contacts/${created.id}`).set('Accept', 'application/xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const xml = parseXml(res.text).end({ format: 'object' }) as unknown as { contact: Record<string, unknown> };
    expect(Object.keys(xml)).toEqual(['contact']);
    expect(xml.contact).toMatchObject({ id: String(created.id), tags: ['Lead', 'VIP'], properties: [{ name: 'first_name' }, { name: 'email' }] });
  });

  it('answers 204 with an empty body for an unknown id', async () => {
    await createAs(ann, person('Ann'));
    expectEmpty204(await ctx.as(ann).get('/dev/api/contacts/987654'));
  });

  it("answers 204 with an empty body for another account's id", async () => {
    const theirs = await createAs(zed, person('Zed'));
    expectEmpty204(await ctx.as(ann).get(`/dev/api/contacts/${theirs.id}`));
    expect((await ctx.as(zed).get(`/dev/api/contacts/${theirs.id}`)).status).toBe(200);
  });

  it.each(['abc', '0', '-1', '1.5', '01', '1e3', '99999999999999999999'])('answers 400 naming id for %p', async (id) => {
    expectError(await ctx.as(ann).get(`/dev/api/contacts/${id}`), 400, 'validation_failed', ['id']);
  });
});

describe('C5: delete', () => {
  it('answers 204, removes the contact, decrements the count and releases its email', async () => {
    const created = await createAs(ann, person('Ann', 'ann@x.test'));
    const other = await createAs(ann, person('Bob', 'bob@x.test'));
    expect(await contactCount(ann)).toBe(2);

    expectEmpty204(await ctx.as(ann).delete(`/dev/api/contacts/${created.id}`));
    expect(await ctx.Contact.findById(created.id).lean()).toBeNull();
    expectEmpty204(await ctx.as(ann).get(`/dev/api/contacts/${created.id}`));
    expect(await contactCount(ann)).toBe(1);
    expect(await ctx.EmailClaim.find().lean()).toEqual([expect.objectContaining({ _id: `${ann.account}:bob@x.test`, contact: other.id })]);

    const again = await ctx.as(ann).post('/dev/api/contacts').send(person('New Ann', 'ann@x.test'));
    expect(again.status).toBe(200);
    expect((await ctx.EmailClaim.findById(`${ann.account}:ann@x.test`).lean())!.contact).toBe(again.body.id);
    expect(await contactCount(ann)).toBe(2);
  });

  it('releases every email of a person with several', async () => {
    const created = await createAs(ann, {
      properties: [
        { type: 'SYSTEM', name: 'first_name', value: 'Ann' },
        { type: 'SYSTEM', name: 'email', subtype: 'work', value: 'ann@work.test' },
        { type: 'SYSTEM', name: 'email', subtype: 'personal', value: 'ann@home.test' },
      ],
    });
    expect(await ctx.EmailClaim.countDocuments()).toBe(2);
    expectEmpty204(await ctx.as(ann).delete(`/dev/api/contacts/${created.id}`));
    expect(await ctx.EmailClaim.countDocuments()).toBe(0);
  });

  it('answers 204 for an unknown id and changes nothing', async () => {
    await createAs(ann, person('Ann', 'ann@x.test'));
    const before = await stored();
    expectEmpty204(await ctx.as(ann).delete('/dev/api/contacts/987654'));
    expect(await stored()).toEqual(before);
  });

  it("answers 204 for another account's id and leaves that contact, its email and its count alone", async () => {
    const theirs = await createAs(zed, person('Zed', 'zed@x.test'));
    const before = await stored();
    expectEmpty204(await ctx.as(ann).delete(`/dev/api/contacts/${theirs.id}`));
    expect(await stored()).toEqual(before);
    const read = await ctx.as(zed).get(`/dev/api/contacts/${theirs.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(theirs);
    expect(await contactCount(zed)).toBe(1);
    expect(await contactCount(ann)).toBe(0);
  });

  it('decrements the count once for a repeated or concurrent delete', async () => {
    const [a] = [await createAs(ann, person('Ann')), await createAs(ann, person('Bob'))];
    const results = await Promise.all(Array.from({ length: 5 }, () => ctx.as(ann).delete(`/dev/api/contacts/${a.id}`)));
    for (const res of results) expectEmpty204(res);
    expectEmpty204(await ctx.as(ann).delete(`/dev/api/contacts/${a.id}`));
    expect(await contactCount(ann)).toBe(1);
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(1);
  });

  it('unsets contact_company_id on the persons of a deleted company, and only on those', async () => {
    const acme = await createAs(ann, company('Acme'));
    const beta = await createAs(ann, company('Beta'));
    const p1 = await createAs(ann, person('P1', undefined, { contact_company_id: acme.id }));
    const p2 = await createAs(ann, person('P2', undefined, { contact_company_id: acme.id }));
    const p3 = await createAs(ann, person('P3', undefined, { contact_company_id: beta.id }));

    expectEmpty204(await ctx.as(ann).delete(`/dev/api/contacts/${acme.id}`));
    for (const p of [p1, p2]) {
      const read = await ctx.as(ann).get(`/dev/api/contacts/${p.id}`);
      expect(read.body).not.toHaveProperty('contact_company_id');
      expect(read.body).toEqual({ ...p, contact_company_id: undefined, updated_time: read.body.updated_time });
      expect((await ctx.Contact.findById(p.id).lean())!.contact_company_id).toBeNull();
    }
    expect((await ctx.as(ann).get(`/dev/api/contacts/${p3.id}`)).body.contact_company_id).toBe(beta.id);
    expect(await contactCount(ann)).toBe(4);

    // the former employees can be saved again without a dangling company id
    const put = await ctx.as(ann).put('/dev/api/contacts').send({ id: p1.id, star_value: 1 });
    expect(put.status).toBe(200);
  });

  it('unlinks a person created while its company is deleted (checked before the delete, written after it)', async () => {
    const acme = await createAs(ann, company('Acme'));
    const hold = holdFirst('insertOne', ([doc]) => (doc as { contact_company_id?: number }).contact_company_id === acme.id);
    const created = await deletedWhileHeld(hold, acme.id, () => ctx.as(ann).post('/dev/api/contacts').send(person('Ann', undefined, { contact_company_id: acme.id })).then((res) => res));
    expect(created.status).toBe(200);
    expect(created.body).not.toHaveProperty('contact_company_id');
    expect((await ctx.Contact.findById(created.body.id).lean())!.contact_company_id).toBeNull();
    expect((await ctx.as(ann).get(`/dev/api/contacts/${created.body.id}`)).body).not.toHaveProperty('contact_company_id');
  });

  it('unlinks a person linked by PUT while its company is deleted', async () => {
    const acme = await createAs(ann, company('Acme'));
    const ann1 = await createAs(ann, person('Ann'));
    const hold = holdFirst('updateOne', ([, update]) => (update as { $set?: { contact_company_id?: number } }).$set?.contact_company_id === acme.id);
    const updated = await deletedWhileHeld(hold, acme.id, () => ctx.as(ann).put('/dev/api/contacts').send({ id: ann1.id, contact_company_id: acme.id }).then((res) => res));
    expect(updated.status).toBe(200);
    expect(updated.body).not.toHaveProperty('contact_company_id');
    expect((await ctx.Contact.findById(ann1.id).lean())!.contact_company_id).toBeNull();
  });

  it('leaves no person pointing at a company deleted amid concurrent creates and links', async () => {
    const acme = await createAs(ann, company('Acme'));
    const existing = await createAs(ann, person('Old'));
    const results = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => ctx.as(ann).post('/dev/api/contacts').send(person(`P${i}`, undefined, { contact_company_id: acme.id }))),
      ctx.as(ann).put('/dev/api/contacts').send({ id: existing.id, contact_company_id: acme.id }),
      ctx.as(ann).delete(`/dev/api/contacts/${acme.id}`),
    ]);
    // each create or link either saw the company (200) or came after its delete (400)
    for (const res of results.slice(0, 7)) expect([200, 400]).toContain(res.status);
    expect(results[7].status).toBe(204);
    expect(await ctx.Contact.countDocuments({ contact_company_id: acme.id })).toBe(0);
  });

  it.each(['abc', '0', '-1', '1.5'])('answers 400 naming id for %p, deleting nothing', async (id) => {
    await createAs(ann, person('Ann'));
    const before = await stored();
    expectError(await ctx.as(ann).delete(`/dev/api/contacts/${id}`), 400, 'validation_failed', ['id']);
    expect(await stored()).toEqual(before);
  });
});
