import { dealHelpers } from './deal-helpers';
import { expectError, storedState } from './expectations';
import { person, setupCrmApp, type TestUser } from './setup-app';

/**
 * A create whose new id another document already holds (two accounts drawing the same random id in
 * the same millisecond; a record restored from elsewhere): the create takes a fresh id and never
 * fails or overwrites because of it, and what it claimed for the taken id is given back.
 *
 * The clock stands still in these tests, so the next id of the account is predictable: the last
 * one + 1 (store/account-scope.ts accountIds), which a squatter can take first.
 */
const ctx = setupCrmApp();
const deals = dealHelpers(ctx);
beforeEach(() => {
  const frozen = Date.now();
  jest.spyOn(Date, 'now').mockImplementation(() => frozen);
});
afterEach(() => jest.restoreAllMocks());
const contacts = () => ctx.connection.collection<{ _id: number }>('contacts');
const claimsHeld = async () => Object.fromEntries((await ctx.EmailClaim.find().lean()).map((c) => [c._id, c.contact]));
const contactCount = async (user: TestUser) => (await ctx.Account.findById(user.account).lean())!.contact_count;

let ann: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
});

/** Stores a person straight into the database under `id`, with its email claim and slot, as the API would have. */
async function squat(id: number, email: string) {
  const doc = {
    _id: id,
    account: ann.account,
    owner: ann.id,
    type: 'PERSON',
    tag_times: {},
    lead_score: 0,
    star_value: 0,
    contact_company_id: null,
    properties: [
      { name: 'first_name', type: 'SYSTEM', value: 'Squatter' },
      { name: 'email', type: 'SYSTEM', subtype: 'work', value: email },
    ],
    emails: [email],
    campaignStatus: [],
    unsubscribeStatus: [],
    emailBounceStatus: [],
    widget_properties: null,
    created_time: 1_700_000_000,
    updated_time: 1_700_000_000,
    rev: 0,
  };
  await contacts().insertOne(doc);
  await ctx.EmailClaim.create({ _id: `${ann.account}:${email}`, contact: id, claimed_at: Date.now() });
  await ctx.Account.updateOne({ _id: ann.account }, { $inc: { contact_count: 1 } });
  return doc;
}

describe('C3 when the next contact id is already taken', () => {
  it('answers 200 under a fresh id; both contacts stored, each email claimed by its own contact, one slot each', async () => {
    const first = await ctx.as(ann).post('/dev/api/contacts').send(person('First', 'first@x.test'));
    expect(first.status).toBe(200);
    const squatters = [await squat(first.body.id + 1, 'sq1@x.test'), await squat(first.body.id + 2, 'sq2@x.test')];

    const res = await ctx.as(ann).post('/dev/api/contacts').send(person('New', 'new@x.test'));

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'PERSON', properties: [{ name: 'first_name', value: 'New' }, { name: 'email', value: 'new@x.test' }] });
    expect(res.body.domainUser.email).toBe(ann.email);
    const id = res.body.id;
    expect(id).toBeGreaterThan(first.body.id + 2);
    for (const squatter of squatters) expect(await contacts().findOne({ _id: squatter._id })).toEqual(squatter);
    expect(await ctx.Contact.findById(id).lean()).toMatchObject({ account: ann.account, owner: ann.id, emails: ['new@x.test'] });
    expect(await claimsHeld()).toEqual({
      [`${ann.account}:first@x.test`]: first.body.id,
      [`${ann.account}:sq1@x.test`]: first.body.id + 1,
      [`${ann.account}:sq2@x.test`]: first.body.id + 2,
      [`${ann.account}:new@x.test`]: id,
    });
    expect(await contactCount(ann)).toBe(4);
    expect((await ctx.as(ann).get(`/dev/api/contacts/${id}`)).body.properties[0].value).toBe('New');
  });

  it("refuses (400 duplicate_email) a person whose email the id's holder owns, and leaves that holder's claim and everything else as it was", async () => {
    const first = await ctx.as(ann).post('/dev/api/contacts').send(person('First'));
    await squat(first.body.id + 1, 'taken@x.test');
    const before = await storedState(ctx.connection);

    const res = await ctx.as(ann).post('/dev/api/contacts').send(person('New', 'taken@x.test'));

    expectError(res, 400, 'duplicate_email', ['properties']);
    expect(await storedState(ctx.connection)).toEqual(before);
    expect(await claimsHeld()).toEqual({ [`${ann.account}:taken@x.test`]: first.body.id + 1 });
  });
});

describe('the other creates share the same id helper', () => {
  const task = { subject: 'Call', type: 'CALL', priority_type: 'LOW', due: 1_900_000_000 };
  const event = { title: 'Demo', start: 1_900_000_000, end: 1_900_000_100 };
  // [what, path, collection, body, a field that tells the holder apart (an identical document would pass for this very insert, retried)]
  const cases: [string, string, string, () => Promise<object>, object][] = [
    ['a deal', '/dev/api/opportunity', 'deals', async () => deals.dealBody(ann, await deals.defaultTrack(ann)), { name: 'Holder' }],
    ['a note', '/dev/api/notes', 'notes', async () => ({ subject: 'S', description: 'D' }), { subject: 'Holder' }],
    ['a task', '/dev/api/tasks', 'tasks', async () => task, { subject: 'Holder' }],
    ['an event', '/dev/api/events', 'events', async () => event, { title: 'Holder' }],
  ];

  it.each(cases)('%s: a taken next id is re-drawn; both stored, the holder untouched', async (_what, path, collection, body, differs) => {
    const first = await ctx.as(ann).post(path).send(await body());
    expect(first.status).toBe(200);
    const stored = ctx.connection.collection<{ _id: number }>(collection);
    const holder = { ...(await stored.findOne({ _id: first.body.id }))!, _id: first.body.id + 1, ...differs };
    await stored.insertOne(holder);

    const res = await ctx.as(ann).post(path).send(await body());

    expect(res.status).toBe(200);
    expect(res.body.id).toBeGreaterThan(first.body.id + 1);
    expect(await stored.findOne({ _id: first.body.id + 1 })).toEqual(holder);
    expect(await stored.findOne({ _id: res.body.id })).toMatchObject({ _id: res.body.id, account: ann.account });
    expect(await stored.countDocuments()).toBe(3);
  });
});
