import { createContact } from './activity-helpers';
import { dealHelpers } from './deal-helpers';
import { expectError, storedState } from './expectations';
import { setupCrmApp, type TestUser } from './setup-app';

/** Notes take `owner_id` (PHP client README 4.1, 4.3); PUT /dev/api/opportunity/deals/notes (Python README 4.6). */
const ctx = setupCrmApp();
const deals = dealHelpers(ctx);
const Note = () => ctx.connection.collection('notes');
const stored = () => storedState(ctx.connection);

let ann: TestUser, bob: TestUser, zed: TestUser;
beforeEach(async () => {
  ({ ann, colleague: bob, zed } = await ctx.threeUsers());
});

describe('owner_id on notes', () => {
  it('is the caller by default and may name another user of the account (number or digit string)', async () => {
    const mine = await ctx.as(ann).post('/dev/api/notes').send({ subject: 'S', description: 'D' });
    expect(mine.status).toBe(200);
    expect(mine.body.owner_id).toBe(ann.id);
    for (const owner of [bob.id, String(bob.id)]) {
      const res = await ctx.as(ann).post('/dev/api/notes').send({ subject: 'S', description: 'D', owner_id: owner });
      expect(res.status).toBe(200);
      expect(res.body.owner_id).toBe(bob.id);
      expect(await Note().findOne({ _id: res.body.id })).toMatchObject({ owner: bob.id, account: ann.account });
    }
  });

  it('refuses a user of another account, an unknown user and a malformed id with 400 naming owner_id; nothing is written', async () => {
    const before = await stored();
    for (const owner of [zed.id, 999_999, 'abc', -1, 0, 1.5, '']) {
      expectError(await ctx.as(ann).post('/dev/api/notes').send({ subject: 'S', description: 'D', owner_id: owner }), 400, 'validation_failed', ['owner_id']);
    }
    expect(await stored()).toEqual(before);
  });

  it('PUT /dev/api/notes changes the owner, and only with a user of the account', async () => {
    const note = (await ctx.as(ann).post('/dev/api/notes').send({ subject: 'S', description: 'D' })).body;
    const res = await ctx.as(ann).put('/dev/api/notes').send({ id: note.id, owner_id: bob.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: note.id, subject: 'S', owner_id: bob.id });
    const before = await stored();
    expectError(await ctx.as(ann).put('/dev/api/notes').send({ id: note.id, owner_id: zed.id }), 400, 'validation_failed', ['owner_id']);
    expect(await stored()).toEqual(before);
  });

  it('N2 (form call) gives the note to the caller', async () => {
    const contact = await createContact(ctx, ann, 'Al', 'al@x.test');
    const res = await ctx.as(bob).post('/dev/api/contacts/email/note/add').type('form').send({ email: 'al@x.test', note: '{"subject":"S","description":"D"}' });
    expect(res.status).toBe(204);
    expect(await Note().findOne({ contacts: contact.id })).toMatchObject({ owner: bob.id });
  });
});

describe('PUT /dev/api/opportunity/deals/notes', () => {
  it('updates the note: the sent fields replace the stored ones, deal_ids included', async () => {
    const track = await deals.defaultTrack(ann);
    const [d1, d2] = [await deals.createDeal(ann, track), await deals.createDeal(ann, track)];
    const note = (await ctx.as(ann).post('/dev/api/opportunity/deals/notes').send({ subject: 'Deal From Albany', description: 'D', deal_ids: [String(d1.id)] })).body;
    const res = await ctx.as(ann).put('/dev/api/opportunity/deals/notes').send({ id: String(note.id), subject: 'Deal From Albany edit', description: 'E', deal_ids: [String(d2.id)] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: note.id, subject: 'Deal From Albany edit', description: 'E', deal_ids: [String(d2.id)], owner_id: ann.id, entity_type: 'note' });
    expect((await ctx.as(ann).get(`/dev/api/opportunity/${d2.id}/notes`)).body.map((n: { id: number }) => n.id)).toEqual([note.id]);
    expect((await ctx.as(ann).get(`/dev/api/opportunity/${d1.id}/notes`)).body).toEqual([]);
  });

  it('refuses a missing or empty deal_ids, a deal of another account (400) and an unknown note (404); nothing changes', async () => {
    const track = await deals.defaultTrack(ann);
    const zedDeal = await deals.createDeal(zed, await deals.defaultTrack(zed));
    const d1 = await deals.createDeal(ann, track);
    const note = (await ctx.as(ann).post('/dev/api/opportunity/deals/notes').send({ subject: 'S', description: 'D', deal_ids: [d1.id] })).body;
    const before = await stored();
    expectError(await ctx.as(ann).put('/dev/api/opportunity/deals/notes').send({ id: note.id, subject: 'X' }), 400, 'validation_failed', ['deal_ids']);
    expectError(await ctx.as(ann).put('/dev/api/opportunity/deals/notes').send({ id: note.id, deal_ids: [] }), 400, 'validation_failed', ['deal_ids']);
    expectError(await ctx.as(ann).put('/dev/api/opportunity/deals/notes').send({ id: note.id, deal_ids: [zedDeal.id] }), 400, 'validation_failed', ['deal_ids']);
    expectError(await ctx.as(ann).put('/dev/api/opportunity/deals/notes').send({ subject: 'X', deal_ids: [d1.id] }), 400, 'validation_failed', ['id']);
    const missing = await ctx.as(ann).put('/dev/api/opportunity/deals/notes').send({ id: 987_654, subject: 'X', deal_ids: [d1.id] });
    expect(missing.status).toBe(404);
    // another account's note is as missing as an unknown one
    const foreign = await ctx.as(zed).put('/dev/api/opportunity/deals/notes').send({ id: note.id, subject: 'X', deal_ids: [zedDeal.id] });
    expect(foreign.status).toBe(404);
    expect(await stored()).toEqual(before);
  });
});
