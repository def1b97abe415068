import { documentModel } from '../src/documents/document.model';
import { crmData } from '../src/wiring';
import { dealHelpers } from './deal-helpers';
import { expectError, storedState } from './expectations';
import { person, setupCrmApp, type TestUser } from './setup-app';

/** Documents (the original's REST docs, 9): links to files with their metadata, related to contacts and deals. */
const ctx = setupCrmApp();
const h = dealHelpers(ctx);
const Doc = () => documentModel(ctx.connection);
const PATH = '/dev/api/documents';
const URL_ = 'https://files.example/acme/Address%20proof.png?id=1';

let ann: TestUser;
let bob: TestUser;
let zed: TestUser;
let al: number;
beforeEach(async () => {
  await Doc().deleteMany({});
  await ctx.connection.collection('deals').deleteMany({});
  ({ ann, colleague: bob, zed } = await ctx.threeUsers());
  al = (await ctx.as(ann).post('/dev/api/contacts').send(person('Al', 'al@acme.test'))).body.id;
});

async function create(user: TestUser, body: object) {
  const res = await ctx.as(user).post(PATH).send(body);
  expect(res.status).toBe(200);
  return res.body as { id: number } & Record<string, unknown>;
}

describe('POST /dev/api/documents', () => {
  it('creates a document with the original\'s fields, related to a contact and a deal, owned by the caller', async () => {
    const deal = await h.createDeal(ann, await h.defaultTrack(ann));
    const res = await ctx.as(ann).post(PATH).send({
      extension: 'chrome-window2.PNG',
      doc_type: 'ATTACHMENT',
      name: 'Address proof',
      url: URL_,
      size: '57907',
      network_type: 'S3',
      contact_ids: [String(al)],
      deal_ids: [String(deal.id)],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Address proof',
      url: URL_,
      doc_type: 'ATTACHMENT',
      network_type: 'S3',
      extension: 'chrome-window2.PNG',
      size: 57907,
      contact_ids: [String(al)],
      deal_ids: [String(deal.id)],
      owner_id: ann.id,
      uploaded_time: expect.any(Number),
      updated_time: expect.any(Number),
      entity_type: 'document',
    });
    expect(await Doc().find().lean()).toEqual([expect.objectContaining({ _id: res.body.id, account: ann.account, contacts: [al], deals: [deal.id], owner: ann.id })]);
  });

  it('takes only the url: the name from its path, ATTACHMENT, OTHER, no relations; answers XML when asked', async () => {
    const res = await ctx.as(ann).post(PATH).set('Accept', 'application/xml').send({ url: URL_ });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^<\?xml[^>]*\?><document><id>\d+<\/id><name>Address proof.png<\/name><url>https:\/\/files.example\/acme\/Address%20proof.png\?id=1<\/url><doc_type>ATTACHMENT<\/doc_type><network_type>OTHER<\/network_type>/);
  });

  it('reads an XML body', async () => {
    const res = await ctx.as(ann).post(PATH).set('Content-Type', 'application/xml').send(`<document><url>${URL_.replace('&', '&amp;')}</url><name>X</name></document>`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'X', url: URL_ });
  });

  it.each([
    [{}, ['url']],
    [{ url: 'javascript:alert(1)' }, ['url']],
    [{ url: 'file:///etc/passwd' }, ['url']],
    [{ url: 'not a link' }, ['url']],
    [{ url: `https://x.example/${'a'.repeat(2048)}` }, ['url']],
    [{ url: URL_, name: 'n'.repeat(251) }, ['name']],
    [{ url: URL_, doc_type: 'attachment' }, ['doc_type']],
    [{ url: URL_, network_type: 'FTP' }, ['network_type']],
    [{ url: URL_, size: -1 }, ['size']],
    [{ url: URL_, contact_ids: Array.from({ length: 11 }, (_, i) => i + 1) }, ['contact_ids']],
    [{ url: URL_, deal_ids: Array.from({ length: 101 }, (_, i) => i + 1) }, ['deal_ids']],
    [{ url: URL_, colour: 'red' }, ['colour']],
    [{ url: URL_, id: 5 }, ['id']],
    [{ url: URL_, contact_ids: [999] }, ['contact_ids']],
    [{ url: URL_, deal_ids: [999] }, ['deal_ids']],
    [{ url: URL_, owner_id: 999 }, ['owner_id']],
  ])('case %#: answers 400 naming the field and stores nothing', async (body, fields) => {
    const before = await storedState(ctx.connection);
    expectError(await ctx.as(ann).post(PATH).send(body), 400, 'validation_failed', fields);
    expect(await storedState(ctx.connection)).toEqual(before);
  });

  it('refuses another account\'s contact (400), without credentials 401, from another site 403, for Accept text/plain 406', async () => {
    expectError(await ctx.as(zed).post(PATH).send({ url: URL_, contact_ids: [al] }), 400, 'validation_failed', ['contact_ids']);
    const anon = await ctx.as({ ...ann, auth: 'Basic eDp5' }).post(PATH).send({ url: URL_ });
    expectError(anon, 401, 'unauthorized');
    expectError(await ctx.as(ann).post(PATH).set('Origin', 'https://evil.example').send({ url: URL_ }), 403, 'cross_site_request');
    expectError(await ctx.as(ann).post(PATH).set('Accept', 'text/plain').send({ url: URL_ }), 406, 'not_acceptable');
    expect(await Doc().countDocuments()).toBe(0);
  });
});

describe('PUT /dev/api/documents', () => {
  it('replaces the document with the id: fields not sent take their defaults, the owner stays', async () => {
    const doc = await create(bob, { url: URL_, name: 'Old', extension: 'png', contact_ids: [al], network_type: 'S3' });
    const res = await ctx.as(ann).put(PATH).send({ id: String(doc.id), url: 'https://files.example/b.pdf', name: 'Address proof3', doc_type: 'ATTACHMENT' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...doc, url: 'https://files.example/b.pdf', name: 'Address proof3', extension: undefined, network_type: 'OTHER', contact_ids: [], updated_time: expect.any(Number) });
    expect(res.body).not.toHaveProperty('extension');
    expect(res.body.owner_id).toBe(bob.id);
    // a fetched document sent back unchanged is accepted
    const again = await ctx.as(ann).put(PATH).send(res.body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...res.body, updated_time: expect.any(Number) });
  });

  it('answers 404 for an id the account has not (another account\'s too), 400 without id or url', async () => {
    const doc = await create(ann, { url: URL_ });
    expectError(await ctx.as(zed).put(PATH).send({ id: doc.id, url: URL_ }), 404, 'document_not_found');
    expectError(await ctx.as(ann).put(PATH).send({ url: URL_ }), 400, 'validation_failed', ['id']);
    expectError(await ctx.as(ann).put(PATH).send({ id: doc.id }), 400, 'validation_failed', ['url']);
    expect((await ctx.as(ann).get(`${PATH}/${doc.id}`)).body.url).toBe(URL_);
  });
});

describe('GET /dev/api/documents/contact/{contactId}/docs', () => {
  it('lists the contact\'s documents oldest first, count on the first, paged with cursors', async () => {
    const docs = [];
    for (const name of ['a', 'b', 'c']) docs.push(await create(ann, { url: URL_, name, contact_ids: [al] }));
    await create(ann, { url: URL_, name: 'other' });
    const all = await ctx.as(ann).get(`${PATH}/contact/${al}/docs`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual([{ ...docs[0], count: 3 }, docs[1], docs[2]]);
    const first = await ctx.as(ann).get(`${PATH}/contact/${al}/docs?page_size=2`);
    expect(first.body.map((d: { name: string }) => d.name)).toEqual(['a', 'b']);
    const cursor = first.body[1].cursor as string;
    const next = await ctx.as(ann).get(`${PATH}/contact/${al}/docs?page_size=2&cursor=${encodeURIComponent(cursor)}`);
    expect(next.body).toEqual([{ ...docs[2], count: 3 }]);
  });

  it('answers [] for a contact without documents and for another account\'s contact; XML as <documents>', async () => {
    await create(ann, { url: URL_, contact_ids: [al] });
    expect((await ctx.as(zed).get(`${PATH}/contact/${al}/docs`)).body).toEqual([]);
    const xml = await ctx.as(ann).get(`${PATH}/contact/${al}/docs`).set('Accept', 'application/xml');
    expect(xml.status).toBe(200);
    expect(xml.text).toMatch(/^<\?xml[^>]*\?><documents><document><id>/);
    expectError(await ctx.as(ann).get(`${PATH}/contact/x/docs`), 400, 'validation_failed', ['contactId']);
    expectError(await ctx.as(ann).get(`${PATH}/contact/${al}/docs?page_size=201`), 400, 'validation_failed', ['page_size']);
  });
});

describe('GET and DELETE /dev/api/documents/{id}', () => {
  it('reads one, deletes it (204, also again), another account gets 404 and cannot delete it', async () => {
    const doc = await create(ann, { url: URL_ });
    expectError(await ctx.as(zed).get(`${PATH}/${doc.id}`), 404, 'document_not_found');
    expect((await ctx.as(zed).delete(`${PATH}/${doc.id}`)).status).toBe(204);
    expect((await ctx.as(ann).get(`${PATH}/${doc.id}`)).body).toEqual(doc);
    expect((await ctx.as(ann).delete(`${PATH}/${doc.id}`)).status).toBe(204);
    expect((await ctx.as(ann).delete(`${PATH}/${doc.id}`)).status).toBe(204);
    expectError(await ctx.as(ann).get(`${PATH}/${doc.id}`), 404, 'document_not_found');
  });
});

describe('deletes clean up documents\' links', () => {
  it('a deleted contact or deal drops out of its documents; the documents stay', async () => {
    const track = await h.defaultTrack(ann);
    const [d1, d2] = [await h.createDeal(ann, track), await h.createDeal(ann, track)];
    const cy = (await ctx.as(ann).post('/dev/api/contacts').send(person('Cy', 'cy@acme.test'))).body.id;
    const doc = await create(ann, { url: URL_, contact_ids: [al, cy], deal_ids: [d1.id, d2.id] });
    expect((await ctx.as(ann).delete(`/dev/api/contacts/${al}`)).status).toBe(204);
    expect((await ctx.as(ann).delete(`/dev/api/opportunity/${d1.id}`)).status).toBe(200);
    const after = await ctx.as(ann).get(`${PATH}/${doc.id}`);
    expect(after.body).toMatchObject({ contact_ids: [String(cy)], deal_ids: [String(d2.id)] });
    expect((await ctx.as(ann).post('/dev/api/opportunity/bulk').send({ ids: [d2.id] })).status).toBeLessThan(300);
    expect((await ctx.as(ann).get(`${PATH}/${doc.id}`)).body.deal_ids).toEqual([]);
  });

  it('a user who owns documents is not deleted until they are given to another user (PUT with owner_id)', async () => {
    const doc = await create(bob, { url: URL_ });
    const users = crmData(ctx.connection).users;
    await expect(users.remove(bob.email)).rejects.toMatchObject({ status: 409 });
    expect((await ctx.as(ann).put(PATH).send({ id: doc.id, url: URL_, owner_id: ann.id })).body.owner_id).toBe(ann.id);
    expect((await users.remove(bob.email)).email).toBe(bob.email);
  });
});
