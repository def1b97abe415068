import request from 'supertest';
import { create as parseXml } from 'xmlbuilder2';
import { useServiceApp } from '@lib/testing';
import { crmData } from '../src/wiring';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { dealHelpers} from './deal-helpers';
import { expectError } from './expectations';
import { TEST_CURSOR_SECRET, setupCrmApp, type TestUser } from './setup-app';

/** K1–K4: tracks (pipelines) and their milestones. */
const ctx = setupCrmApp();
const h = dealHelpers(ctx);
const PATH = '/dev/api/milestone/pipelines';

let ann: TestUser;
let zed: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  zed = await ctx.user('other', 'zed@other.test');
});

const storedTracks = async (user: TestUser) =>
  (await h.Track().find({ account: user.account }).sort({ _id: 1 }).lean()).map(({ _id, name, milestones }) => ({ _id, name, milestones }));

describe('an Accept nobody answers (406) writes nothing', () => {
  it('K1 does not make the Default track, C3 does not store the contact', async () => {
    const listed = await ctx.as(ann).get(PATH).set('Accept', 'application/json;q=0');
    expectError(listed, 406, 'not_acceptable');
    expect(await storedTracks(ann)).toEqual([]);
    const created = await ctx.as(ann).post('/dev/api/contacts').set('Accept', 'text/plain').send({ properties: [{ type: 'SYSTEM', name: 'first_name', value: 'Ann' }] });
    expectError(created, 406, 'not_acceptable');
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(0);
  });
});

describe('K1: list', () => {
  it('every account has the Default track with the default milestones', async () => {
    const res = await ctx.as(ann).get(PATH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: expect.any(Number), name: 'Default', milestones: 'Open,New,Prospect,Proposal,Won,Lost' }]);
    expect(res.body[0].id).toBeGreaterThan(1);
    // listing again does not make a second one
    expect((await ctx.as(ann).get(PATH)).body).toEqual(res.body);
    expect(await storedTracks(ann)).toEqual([{ _id: res.body[0].id, name: 'Default', milestones: ['Open', 'New', 'Prospect', 'Proposal', 'Won', 'Lost'] }]);
  });

  it('answers 406 to an Accept it cannot serve before making the Default track (a refused request writes nothing)', async () => {
    const res = await ctx.as(ann).get(PATH).set('Accept', 'text/html');
    expect(res.status).toBe(406);
    expect(await storedTracks(ann)).toEqual([]);
  });

  it('concurrent first calls make exactly one Default track', async () => {
    const responses = await Promise.all(Array.from({ length: 10 }, () => ctx.as(ann).get(PATH)));
    expect(new Set(responses.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(responses.map((r) => r.body[0].id)).size).toBe(1);
    expect(await h.Track().countDocuments({ account: ann.account })).toBe(1);
  });

  it('lists the Default track first, then the others in creation order; each account sees only its own', async () => {
    const sales = await h.createTrack(ann, 'Sales', 'Lead,Won');
    const hiring = await h.createTrack(ann, 'Hiring', 'Applied,Hired');
    const theirs = await h.createTrack(zed, 'Sales', 'Open,Closed');
    const res = await ctx.as(ann).get(PATH);
    expect(res.body.map((t: { name: string }) => t.name)).toEqual(['Default', 'Sales', 'Hiring']);
    expect(res.body.slice(1)).toEqual([sales, hiring]);
    expect((await ctx.as(zed).get(PATH)).body.map((t: { id: number }) => t.id)).toEqual([expect.any(Number), theirs.id]);
  });

  it('answers XML when asked: tracks with repeated track elements', async () => {
    await h.createTrack(ann, 'Sales', 'Lead,Won');
    const res = await ctx.as(ann).get(PATH).set('Accept', 'application/xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const xml = parseXml(res.text).end({ format: 'object' }) as unknown as { tracks: { track: Record<string, string>[] } };
    expect(xml.tracks.track).toEqual([
      { id: expect.stringMatching(/^\d+$/), name: 'Default', milestones: 'Open,New,Prospect,Proposal,Won,Lost' },
      { id: expect.stringMatching(/^\d+$/), name: 'Sales', milestones: 'Lead,Won' },
    ]);
  });

  it('401 without or with wrong credentials, for every track route', async () => {
    for (const call of [
      request(ctx.app).get(PATH),
      request(ctx.app).post(PATH).send({ name: 'X', milestone: 'A' }),
      request(ctx.app).put(PATH).send({ name: 'X', milestone: 'A' }),
      request(ctx.app).delete(`${PATH}/5`),
      request(ctx.app).get(PATH).auth(ann.email, 'wrong-key'),
    ]) {
      const res = await call;
      expectError(res, 401, 'unauthorized');
    }
    expect(await h.Track().countDocuments()).toBe(0);
  });
});

describe('K2: create', () => {
  it('creates a track from name and milestone; answers milestones; ids are never 0 or 1', async () => {
    const res = await ctx.as(ann).post(PATH).send({ name: 'Sales', milestone: 'Lead,Demo,Won,Lost' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(Number), name: 'Sales', milestones: 'Lead,Demo,Won,Lost' });
    const stored = await storedTracks(ann);
    expect(stored.map((t) => t.name)).toEqual(['Default', 'Sales']);
    expect(stored[1]).toEqual({ _id: res.body.id, name: 'Sales', milestones: ['Lead', 'Demo', 'Won', 'Lost'] });
    for (const t of stored) expect(t._id).toBeGreaterThan(1);
  });

  it('trims spaces around names and milestones; accepts the response key milestones too', async () => {
    const res = await ctx.as(ann).post(PATH).send({ name: '  Sales ', milestone: ' Lead , Won ' });
    expect(res.body).toMatchObject({ name: 'Sales', milestones: 'Lead,Won' });
    const back = await ctx.as(ann).post(PATH).send({ name: 'Other', milestones: 'Öffen,Won' });
    expect(back.status).toBe(200);
    expect(back.body.milestones).toBe('Öffen,Won');
  });

  it.each([
    ['a lowercase milestone', { name: 'S', milestone: 'Lead,won' }, 'milestone', /"won" must start with an uppercase letter/],
    ['a milestone starting with a digit', { name: 'S', milestone: '1st,Won' }, 'milestone', /"1st" must start with an uppercase letter/],
    ['an empty milestone', { name: 'S', milestone: 'Lead,,Won' }, 'milestone', /empty milestone/],
    ['a trailing comma', { name: 'S', milestone: 'Lead,Won,' }, 'milestone', /empty milestone/],
    ['an empty string', { name: 'S', milestone: '' }, 'milestone', /empty milestone/],
    ['a duplicate milestone', { name: 'S', milestone: 'Lead,Won,Lead' }, 'milestone', /"Lead" is listed twice/],
    ['a missing milestone', { name: 'S' }, 'milestone', /is required/],
    ['a missing name', { milestone: 'Lead' }, 'name', /is required/],
    ['an empty name', { name: '  ', milestone: 'Lead' }, 'name', /must not be empty/],
    ['the name Default', { name: 'Default', milestone: 'Lead' }, 'name', /must not be Default/],
    ['the name Default with spaces', { name: ' Default ', milestone: 'Lead' }, 'name', /must not be Default/],
    ['a number as milestone', { name: 'S', milestone: 5 }, 'milestone', /string/],
    ['an unknown field', { name: 'S', milestone: 'Lead', color: 'red' }, 'color', /not an accepted field/],
    ['an id', { id: 7, name: 'S', milestone: 'Lead' }, 'id', /must not be sent/],
    ['milestone and milestones that differ', { name: 'S', milestone: 'Lead', milestones: 'Won' }, 'milestones', /differs/],
  ])('400 for %s, naming the field; nothing stored', async (_case, body, field, message) => {
    const res = await ctx.as(ann).post(PATH).send(body);
    expectError(res, 400, 'validation_failed', [field]);
    expect(res.body.error.message).toMatch(message);
    expect(await h.Track().countDocuments({ name: { $ne: 'Default' } })).toBe(0);
  });

  it('names are case-sensitive: default and DEFAULT are allowed, Default is not', async () => {
    expect((await ctx.as(ann).post(PATH).send({ name: 'default', milestone: 'A' })).status).toBe(200);
    expect((await ctx.as(ann).post(PATH).send({ name: 'DEFAULT', milestone: 'A' })).status).toBe(200);
    expect((await h.tracks(ann)).map((t) => t.name)).toEqual(['Default', 'default', 'DEFAULT']);
  });

  it('milestones are case-sensitive: Won and WON are two milestones', async () => {
    expect((await ctx.as(ann).post(PATH).send({ name: 'S', milestone: 'Won,WON' })).body.milestones).toBe('Won,WON');
  });

  it('a name taken in the account is a 400 duplicate_name; another account may use it', async () => {
    await h.createTrack(ann, 'Sales', 'Lead');
    const dup = await ctx.as(ann).post(PATH).send({ name: 'Sales', milestone: 'Other' });
    expectError(dup, 400, 'duplicate_name', ['name']);
    expect(dup.body.error.message).toBe('A track named Sales already exists in this account');
    expect((await ctx.as(zed).post(PATH).send({ name: 'Sales', milestone: 'Other' })).status).toBe(200);
    expect(await h.Track().countDocuments({ name: 'Sales' })).toBe(2);
  });

  it('concurrent creates of one name: exactly one wins', async () => {
    const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => ctx.as(ann).post(PATH).send({ name: 'Sales', milestone: `M${i}` })));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of responses.filter((x) => x.status !== 200)) expectError(r, 400, 'duplicate_name', ['name']);
    expect(await h.Track().countDocuments({ account: ann.account, name: 'Sales' })).toBe(1);
  });

  it('answers XML when asked', async () => {
    const res = await ctx.as(ann).post(PATH).set('Accept', 'application/xml').send({ name: 'Sales', milestone: 'Lead,Won' });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><track><id>\d+<\/id><name>Sales<\/name><milestones>Lead,Won<\/milestones><\/track>$/);
  });
});

describe('K3: update', () => {
  it('renames a track and changes its milestones', async () => {
    const sales = await h.createTrack(ann, 'Sales', 'Lead,Won');
    const res = await ctx.as(ann).put(PATH).send({ id: sales.id, name: 'Deals', milestone: 'Lead,Demo,Won' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: sales.id, name: 'Deals', milestones: 'Lead,Demo,Won' });
    expect((await storedTracks(ann))[1]).toEqual({ _id: sales.id, name: 'Deals', milestones: ['Lead', 'Demo', 'Won'] });
  });

  it('a fetched track sent back (with milestones) is accepted', async () => {
    const sales = await h.createTrack(ann, 'Sales', 'Lead,Won');
    const res = await ctx.as(ann).put(PATH).send(sales);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(sales);
  });

  it('without id creates a track', async () => {
    const res = await ctx.as(ann).put(PATH).send({ name: 'Sales', milestone: 'Lead' });
    expect(res.status).toBe(200);
    expect((await h.tracks(ann)).map((t) => t.name)).toEqual(['Default', 'Sales']);
  });

  it('the Default track cannot be changed or renamed', async () => {
    const def = await h.defaultTrack(ann);
    const rename = await ctx.as(ann).put(PATH).send({ id: def.id, name: 'Main', milestone: 'Open,Won' });
    expectError(rename, 400, 'default_track');
    const same = await ctx.as(ann).put(PATH).send({ id: def.id, name: 'Default', milestone: 'Open,Won' });
    expectError(same, 400, 'validation_failed', ['name']);
    expect(await h.defaultTrack(ann)).toEqual(def);
  });

  it('a name taken by another track is a 400 duplicate_name', async () => {
    await h.createTrack(ann, 'Sales', 'Lead');
    const hiring = await h.createTrack(ann, 'Hiring', 'Applied');
    expectError(await ctx.as(ann).put(PATH).send({ id: hiring.id, name: 'Sales', milestone: 'Applied' }), 400, 'duplicate_name', ['name']);
    expect((await h.tracks(ann)).map((t) => t.name)).toEqual(['Default', 'Sales', 'Hiring']);
  });

  it('a milestone that holds deals cannot be removed or renamed; adding and reordering is fine', async () => {
    const sales = await h.createTrack(ann, 'Sales', 'Lead,Demo,Won');
    await h.createDeal(ann, sales, { milestone: 'Demo' });
    const res = await ctx.as(ann).put(PATH).send({ id: sales.id, name: 'Sales', milestone: 'Lead,Won' });
    expectError(res, 400, 'track_not_empty');
    expect(res.body.error.message).toBe('The milestone Demo of the track Sales still holds 1 deal; move or delete it first');
    const renamed = await ctx.as(ann).put(PATH).send({ id: sales.id, name: 'Sales', milestone: 'Lead,Demonstration,Won' });
    expectError(renamed, 400, 'track_not_empty');
    expect((await storedTracks(ann))[1].milestones).toEqual(['Lead', 'Demo', 'Won']);
    const ok = await ctx.as(ann).put(PATH).send({ id: sales.id, name: 'Sales 2', milestone: 'Won,Demo,New' });
    expect(ok.status).toBe(200);
    expect(ok.body.milestones).toBe('Won,Demo,New');
  });

  it('404 track_not_found for an id of no track of the account (another account’s included); nothing changes', async () => {
    const theirs = await h.createTrack(zed, 'Sales', 'Lead');
    const foreign = await ctx.as(ann).put(PATH).send({ id: theirs.id, name: 'Mine', milestone: 'A' });
    const missing = await ctx.as(ann).put(PATH).send({ id: 999_999, name: 'Mine', milestone: 'A' });
    expectError(foreign, 404, 'track_not_found');
    expect(foreign.body.error.message).toBe(`No track with id ${theirs.id}`);
    expect(missing.body.error.message).toBe('No track with id 999999');
    expect(await h.tracks(zed)).toContainEqual(theirs);
  });
});

describe('K4: delete', () => {
  it('deletes an empty track: 204 with an empty body', async () => {
    const sales = await h.createTrack(ann, 'Sales', 'Lead');
    const res = await ctx.as(ann).delete(`${PATH}/${sales.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await h.tracks(ann)).map((t) => t.name)).toEqual(['Default']);
  });

  it('204 for an unknown id and for another account’s track, which stays', async () => {
    const theirs = await h.createTrack(zed, 'Sales', 'Lead');
    expect((await ctx.as(ann).delete(`${PATH}/999999`)).status).toBe(204);
    expect((await ctx.as(ann).delete(`${PATH}/${theirs.id}`)).status).toBe(204);
    expect(await h.tracks(zed)).toContainEqual(theirs);
  });

  it('the Default track, always the last one, cannot be deleted', async () => {
    const def = await h.defaultTrack(ann);
    const res = await ctx.as(ann).delete(`${PATH}/${def.id}`);
    expectError(res, 400, 'default_track');
    expect(res.body.error.message).toMatch(/cannot be deleted.*last track/);
    expect(await h.tracks(ann)).toEqual([def]);
  });

  it('a track that holds deals cannot be deleted; once they are gone it can', async () => {
    const sales = await h.createTrack(ann, 'Sales', 'Lead,Won');
    const d1 = await h.createDeal(ann, sales);
    const d2 = await h.createDeal(ann, sales, { milestone: 'Won' });
    const res = await ctx.as(ann).delete(`${PATH}/${sales.id}`);
    expectError(res, 400, 'track_not_empty');
    expect(res.body.error.message).toBe('The milestones of the track Sales still hold 2 deals; move or delete them first');
    expect(await h.Track().exists({ _id: sales.id })).toBeTruthy();
    await ctx.as(ann).post('/dev/api/opportunity/bulk').send({ ids: [d1.id, d2.id] });
    expect((await ctx.as(ann).delete(`${PATH}/${sales.id}`)).status).toBe(204);
    expect(await h.Track().exists({ _id: sales.id })).toBeNull();
  });

  it('400 for an id that is not a positive whole number', async () => {
    expectError(await ctx.as(ann).delete(`${PATH}/abc`), 400, 'validation_failed', ['id']);
    expectError(await ctx.as(ann).delete(`${PATH}/0`), 400, 'validation_failed', ['id']);
  });
});

describe('configured default milestones', () => {
  it('CRM_DEFAULT_MILESTONES is validated like a milestone list', () => {
    expect(loadConfig({ CRM_DEFAULT_MILESTONES: 'Idea, Done' }).defaultMilestones).toEqual(['Idea', 'Done']);
    expect(loadConfig({}).defaultMilestones).toEqual(['Open', 'New', 'Prospect', 'Proposal', 'Won', 'Lost']);
    expect(() => loadConfig({ CRM_DEFAULT_MILESTONES: 'Idea,done' })).toThrow(/CRM_DEFAULT_MILESTONES: milestone "done" must start with an uppercase letter/);
  });
});

describe('an app with configured default milestones', () => {
  const custom = useServiceApp((deps) => createApp({ ...deps, contactLimit: 10, cursorSecret: TEST_CURSOR_SECRET, defaultMilestones: ['Idea', 'Done'] }));

  it('makes each account’s Default track with them', async () => {
    const { user, apiKey } = await crmData(custom.connection).accounts.addUser({ domain: 'cfg', email: 'cfg@cfg.test' });
    const res = await request(custom.app).get(PATH).auth(user.email, apiKey).set('Accept', 'application/json');
    expect(res.body).toEqual([{ id: expect.any(Number), name: 'Default', milestones: 'Idea,Done' }]);
    const byMilestone = await request(custom.app).get('/dev/api/opportunity/byMilestone').auth(user.email, apiKey).set('Accept', 'application/json');
    expect(byMilestone.body).toEqual({ Idea: [], Done: [] });
  });
});
