import { categoryModel } from '../src/categories/category.model';
import { dealHelpers } from './deal-helpers';
import { expectError, storedState } from './expectations';
import { setupCrmApp, type TestUser } from './setup-app';

/** Categories (the original's CategoriesAPI): deal sources and their use on deals. */
const ctx = setupCrmApp();
const h = dealHelpers(ctx);
const Category = () => categoryModel(ctx.connection);
const PATH = '/dev/api/categories';
const SOURCES = `${PATH}?entity_type=DEAL_SOURCE`;

let ann: TestUser;
let zed: TestUser;
beforeEach(async () => {
  await Category().deleteMany({});
  await ctx.connection.collection('deals').deleteMany({});
  ann = await ctx.user('acme', 'ann@acme.test');
  zed = await ctx.user('other', 'zed@other.test');
});

async function sources(user: TestUser) {
  const res = await ctx.as(user).get(SOURCES);
  expect(res.status).toBe(200);
  return res.body as Array<{ id: number; label: string; name: string; order: number }>;
}
async function createSource(user: TestUser, label: string, extra: object = {}) {
  const res = await ctx.as(user).post(PATH).send({ label, entity_type: 'DEAL_SOURCE', ...extra });
  expect(res.status).toBe(200);
  return res.body as { id: number; label: string };
}

describe('GET /dev/api/categories', () => {
  it('a new account\'s deal sources are the original\'s defaults, made once (also by reads at once), in order', async () => {
    const lists = await Promise.all(Array.from({ length: 4 }, () => ctx.as(ann).get(SOURCES)));
    for (const res of lists) expect(res.status).toBe(200);
    const [first] = lists;
    expect(first.body).toEqual(
      ['Website', 'Referral', 'Ads'].map((label, i) => ({ id: expect.any(Number), name: label.toUpperCase(), label, entity_type: 'DEAL_SOURCE', order: i + 1, created_time: expect.any(Number), updated_time: expect.any(Number) })),
    );
    // three listed and the hidden marker, once
    expect(await Category().countDocuments({ account: ann.account })).toBe(4);
    expect(await sources(ann)).toEqual(first.body);
  });

  it('a deleted default stays deleted; another account keeps its own', async () => {
    const [website] = await sources(ann);
    expect((await ctx.as(ann).delete(`${PATH}/${website.id}`)).status).toBe(204);
    expect((await sources(ann)).map((s) => s.label)).toEqual(['Referral', 'Ads']);
    expect((await sources(zed)).map((s) => s.label)).toEqual(['Website', 'Referral', 'Ads']);
  });

  it('lists the lost reasons with their defaults, every type without entity_type, and answers XML', async () => {
    const reasons = await ctx.as(ann).get(`${PATH}?entity_type=DEAL_LOST_REASON`);
    expect(reasons.body.map((r: { label: string }) => r.label)).toEqual(['Unqualified', 'Lost to competitor', 'Expensive']);
    await createSource(ann, 'Fair');
    await ctx.as(ann).post(PATH).send({ label: 'Call', entity_type: 'TASK' });
    const all = await ctx.as(ann).get(PATH);
    expect(all.body.map((c: { entity_type: string; label: string }) => `${c.entity_type}:${c.label}`)).toEqual([
      'DEAL_LOST_REASON:Unqualified',
      'DEAL_LOST_REASON:Lost to competitor',
      'DEAL_LOST_REASON:Expensive',
      'DEAL_SOURCE:Fair',
      'DEAL_SOURCE:Website',
      'DEAL_SOURCE:Referral',
      'DEAL_SOURCE:Ads',
      'TASK:Call',
    ]);
    const xml = await ctx.as(ann).get(SOURCES).set('Accept', 'application/xml');
    expect(xml.text).toMatch(/^<\?xml[^>]*>\s*<categories><category><id>\d+<\/id><name>FAIR<\/name>/);
  });

  it('answers 400 naming entity_type for an unknown type', async () => {
    expectError(await ctx.as(ann).get(`${PATH}?entity_type=deal_source`), 400, 'validation_failed', ['entity_type']);
  });
});

describe('POST / PUT / DELETE /dev/api/categories', () => {
  it('creates a deal source (name = label upper-cased) and stores it in the account', async () => {
    const res = await ctx.as(ann).post(PATH).send({ label: 'Trade fair 2026', entity_type: 'DEAL_SOURCE', order: 7 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(Number), name: 'TRADE FAIR 2026', label: 'Trade fair 2026', entity_type: 'DEAL_SOURCE', order: 7, created_time: expect.any(Number), updated_time: expect.any(Number) });
    expect(await Category().findById(res.body.id).lean()).toMatchObject({ account: ann.account, label: 'Trade fair 2026' });
  });

  it.each([
    [{ entity_type: 'DEAL_SOURCE' }, ['label']],
    [{ label: 'Google Ads (paid)', entity_type: 'DEAL_SOURCE' }, ['label']],
    [{ label: '1st', entity_type: 'DEAL_SOURCE' }, ['label']],
    [{ label: 'x'.repeat(101), entity_type: 'DEAL_SOURCE' }, ['label']],
    [{ label: 'Fair' }, ['entity_type']],
    [{ label: 'Fair', entity_type: 'deal_source' }, ['entity_type']],
    [{ label: 'Fair', entity_type: 'DEAL_SOURCE', order: -1 }, ['order']],
    [{ label: 'Fair', entity_type: 'DEAL_SOURCE', id: 3 }, ['id']],
  ])('answers 400 naming the field for %p and stores nothing', async (body, fields) => {
    await sources(ann);
    const before = await storedState(ctx.connection);
    expectError(await ctx.as(ann).post(PATH).send(body), 400, 'validation_failed', fields);
    expect(await storedState(ctx.connection)).toEqual(before);
  });

  it('refuses a label the type has in any letter case, with the original\'s message; racing creates store one', async () => {
    const res = await ctx.as(ann).post(PATH).send({ label: 'WEBSITE', entity_type: 'DEAL_SOURCE' });
    expectError(res, 400, 'bad_request', ['label']);
    expect(res.body.error.message).toBe('Source with this name already exists.');
    const answers = await Promise.all(Array.from({ length: 6 }, () => ctx.as(ann).post(PATH).send({ label: 'Fair', entity_type: 'DEAL_SOURCE' })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect(await Category().countDocuments({ account: ann.account, name: 'FAIR' })).toBe(1);
    // another type may have it
    expect((await ctx.as(ann).post(PATH).send({ label: 'Website', entity_type: 'DEAL_LOST_REASON' })).status).toBe(200);
  });

  it('holds at most 100 categories of a type per account', async () => {
    const now = Math.floor(Date.now() / 1000);
    await sources(ann);
    await Category().insertMany(Array.from({ length: 96 }, (_, i) => ({ _id: 5000 + i, account: ann.account, label: `S${i}`, name: `S${i}`, entity_type: 'DEAL_SOURCE', order: 0, created_time: now, updated_time: now })));
    const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => ctx.as(ann).post(PATH).send({ label: `More ${i}`, entity_type: 'DEAL_SOURCE' })));
    expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    expect(await Category().countDocuments({ account: ann.account, entity_type: 'DEAL_SOURCE', hidden: { $ne: true } })).toBeLessThanOrEqual(100);
    expect((await ctx.as(ann).post(PATH).send({ label: 'Other', entity_type: 'TASK' })).status).toBe(200);
  });

  it('PUT relabels and keeps created_time and order unless sent; another account\'s id or another type is a 400', async () => {
    const made = await createSource(ann, 'Fair', { order: 5 });
    const res = await ctx.as(ann).put(PATH).send({ id: made.id, label: 'Trade fair' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...made, label: 'Trade fair', name: 'TRADE FAIR', updated_time: expect.any(Number) });
    const theirs = (await sources(zed))[0];
    expectError(await ctx.as(ann).put(PATH).send({ id: theirs.id, label: 'Mine' }), 400, 'bad_request', ['id']);
    expectError(await ctx.as(ann).put(PATH).send({ id: made.id, label: 'Fair', entity_type: 'TASK' }), 400, 'bad_request', ['entity_type']);
    expect((await Category().findById(theirs.id).lean())?.label).toBe('Website');
  });

  it('DELETE of an id the account has not (another account\'s, the hidden marker) is the original\'s 400', async () => {
    const theirs = (await sources(zed))[0];
    const marker = await Category().findOne({ account: ann.account, hidden: true }).lean();
    for (const id of [theirs.id, marker?._id ?? 1, 99]) {
      const res = await ctx.as(ann).delete(`${PATH}/${id}`);
      expectError(res, 400, 'bad_request', ['id']);
      expect(res.body.error.message).toBe('Unable to delete Category. Please check the input.');
    }
    expect(await Category().countDocuments({ _id: theirs.id })).toBe(1);
  });
});

describe('deal_source_id on deals', () => {
  it('a deal takes a deal source of its account (as number or string), answers it, and 0 when none', async () => {
    const [website, referral] = await sources(ann);
    const track = await h.defaultTrack(ann);
    const deal = await h.createDeal(ann, track, { deal_source_id: String(website.id) });
    expect(deal.deal_source_id).toBe(website.id);
    expect((await h.Deal().findById(deal.id).lean())?.deal_source_id).toBe(website.id);
    const patched = await ctx.as(ann).put('/dev/api/opportunity/partial-update').send({ id: deal.id, deal_source_id: referral.id });
    expect(patched.body.deal_source_id).toBe(referral.id);
    const none = await h.createDeal(ann, track, { deal_source_id: '' });
    expect(none.deal_source_id).toBe(0);
    expect((await h.createDeal(ann, track)).deal_source_id).toBe(0);
  });

  it('refuses a source that is not a deal source of the account (another account\'s, a lost reason, unknown) and stores nothing', async () => {
    const theirs = (await sources(zed))[0];
    const reason = (await ctx.as(ann).get(`${PATH}?entity_type=DEAL_LOST_REASON`)).body[0];
    const track = await h.defaultTrack(ann);
    for (const id of [theirs.id, reason.id, 12345]) {
      const before = await storedState(ctx.connection);
      expectError(await ctx.as(ann).post('/dev/api/opportunity').send(h.dealBody(ann, track, { deal_source_id: id })), 400, 'validation_failed', ['deal_source_id']);
      expect(await storedState(ctx.connection)).toEqual(before);
    }
    expectError(await ctx.as(ann).post('/dev/api/opportunity').send(h.dealBody(ann, track, { deal_source_id: -1 })), 400, 'validation_failed', ['deal_source_id']);
  });

  it('deleting a deal source leaves its deals without a source (0); other deals keep theirs, and the deal stays writable', async () => {
    const [website, referral] = await sources(ann);
    const track = await h.defaultTrack(ann);
    const a = await h.createDeal(ann, track, { deal_source_id: website.id });
    const b = await h.createDeal(ann, track, { deal_source_id: referral.id });
    expect((await ctx.as(ann).delete(`${PATH}/${website.id}`)).status).toBe(204);
    expect((await ctx.as(ann).get(`/dev/api/opportunity/${a.id}`)).body.deal_source_id).toBe(0);
    expect((await h.Deal().findById(b.id).lean())?.deal_source_id).toBe(referral.id);
    const fetched = (await ctx.as(ann).get(`/dev/api/opportunity/${a.id}`)).body;
    expect((await ctx.as(ann).put('/dev/api/opportunity').send({ ...fetched, name: 'Renamed' })).status).toBe(200);
  });

  it('a deal saved with a source deleted meanwhile ends without it', async () => {
    const [website] = await sources(ann);
    const track = await h.defaultTrack(ann);
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => ctx.as(ann).post('/dev/api/opportunity').send(h.dealBody(ann, track, { deal_source_id: website.id }))),
      ctx.as(ann).delete(`${PATH}/${website.id}`),
    ]);
    expect(answers.at(-1)?.status).toBe(204);
    for (const res of answers.slice(0, 4)) expect([200, 400]).toContain(res.status);
    expect(await h.Deal().countDocuments({ account: ann.account, deal_source_id: website.id })).toBe(0);
  });
});
