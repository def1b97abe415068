import request from 'supertest';
import { domainUserModel } from '../src/accounts/domain-user.model';
import { crmData } from '../src/wiring';
import { runAdminCommand } from '../src/admin/commands';
import { dealHelpers, type Track } from './deal-helpers';
import { expectError } from './expectations';
import { setupCrmApp, type TestUser } from './setup-app';

/** Integrity of deals: deleted contacts leave deals, users who own deals are not deleted, tracks keep their deals. */
const ctx = setupCrmApp();
const h = dealHelpers(ctx);
const BASE = '/dev/api/opportunity';

let ann: TestUser, bea: TestUser, zed: TestUser;
let sales: Track;
beforeEach(async () => {
  ({ ann, colleague: bea, zed } = await ctx.threeUsers('bea'));
  sales = await h.createTrack(ann, 'Sales', 'Lead,Demo,Won');
});

const stored = (id: number) => h.Deal().findById(id).lean();

/**
 * Runs `meanwhile` when the app first calls `method` of `model`, before that call reaches the
 * database: the other request lands exactly between this request's checks and its write.
 */
function interleave(model: object, method: string, meanwhile: () => Promise<unknown>) {
  const target = model as Record<string, (...args: unknown[]) => unknown>;
  const original = target[method].bind(model);
  let done = false;
  const spy = jest.spyOn(target, method).mockImplementation(async (...args: unknown[]) => {
    if (!done) {
      done = true;
      await meanwhile();
    }
    return original(...args);
  });
  return { restore: () => spy.mockRestore(), get fired() { return done; } };
}

/** interleave() for a call the app chains `.lean()` on. */
function interleaveLean(model: object, method: string, meanwhile: () => Promise<unknown>) {
  const target = model as Record<string, (...args: unknown[]) => { lean: () => Promise<unknown> }>;
  const original = target[method].bind(model);
  const spy = jest.spyOn(target, method).mockImplementationOnce((...args: unknown[]) => ({
    lean: async () => {
      await meanwhile();
      return original(...args).lean();
    },
  }));
  return { restore: () => spy.mockRestore() };
}

describe('deleting a contact removes it from every deal', () => {
  it('its id leaves contact_ids and contacts of every deal of the account; nothing else changes', async () => {
    const al = await h.contact(ann, 'Al', 'al@x.test');
    const bo = await h.contact(ann, 'Bo');
    const d1 = await h.createDeal(ann, sales, { contact_ids: [al.id, bo.id] });
    const d2 = await h.createDeal(ann, sales, { contact_ids: [al.id] });
    const d3 = await h.createDeal(ann, sales, { contact_ids: [bo.id] });
    const zoe = await h.contact(zed, 'Zoe');
    const theirs = await h.createDeal(zed, await h.defaultTrack(zed), { owner_id: zed.id, contact_ids: [zoe.id] });

    expect((await ctx.as(ann).delete(`/dev/api/contacts/${al.id}`)).status).toBe(204);

    expect((await stored(d1.id))!.contact_ids).toEqual([bo.id]);
    expect((await stored(d2.id))!.contact_ids).toEqual([]);
    expect((await stored(d3.id))!.contact_ids).toEqual([bo.id]);
    expect((await stored(theirs.id))!.contact_ids).toEqual([zoe.id]);
    const read = await ctx.as(ann).get(`${BASE}/${d1.id}`);
    expect(read.body.contact_ids).toEqual([String(bo.id)]);
    expect(read.body.contacts.map((c: { id: number }) => c.id)).toEqual([bo.id]);
    expect((await ctx.as(ann).get(`/dev/api/contacts/${al.id}/deals`)).body).toEqual([]);
    for (const deal of (await ctx.as(ann).get(BASE)).body) expect(JSON.stringify(deal)).not.toContain(`al@x.test`);
  });

  it('another account deleting the same id changes nothing in this account’s deals', async () => {
    const al = await h.contact(ann, 'Al');
    const deal = await h.createDeal(ann, sales, { contact_ids: [al.id] });
    expect((await ctx.as(zed).delete(`/dev/api/contacts/${al.id}`)).status).toBe(204);
    expect((await stored(deal.id))!.contact_ids).toEqual([al.id]);
  });

  it('a contact deleted between a deal write’s checks and the write does not stay on the deal', async () => {
    const al = await h.contact(ann, 'Al');
    const bo = await h.contact(ann, 'Bo');
    const gate = interleave(h.Deal(), 'create', () => ctx.as(ann).delete(`/dev/api/contacts/${al.id}`));
    const res = await ctx.as(ann).post(BASE).send(h.dealBody(ann, sales, { contact_ids: [al.id, bo.id] }));
    gate.restore();
    expect(gate.fired).toBe(true);
    expect(res.status).toBe(200);
    expect(res.body.contact_ids).toEqual([String(bo.id)]);
    expect((await stored(res.body.id))!.contact_ids).toEqual([bo.id]);
  });

  it('concurrent deal updates and contact deletes leave no dangling ids', async () => {
    const contacts = [];
    for (let i = 0; i < 6; i++) contacts.push(await h.contact(ann, `C${i}`));
    const deal = await h.createDeal(ann, sales);
    const all = contacts.map((c) => c.id);
    await Promise.all([
      ...[0, 1, 2].map(() => ctx.as(ann).put(`${BASE}/partial-update`).send({ id: deal.id, contact_ids: all })),
      ...contacts.slice(0, 3).map((c) => ctx.as(ann).delete(`/dev/api/contacts/${c.id}`)),
    ]);
    const left = (await stored(deal.id))!.contact_ids;
    const alive = new Set((await ctx.Contact.find({ account: ann.account }).lean()).map((c) => c._id));
    for (const id of left) expect(alive.has(id)).toBe(true);
  });
});

describe('tracks keep their deals', () => {
  it('a track deleted between a deal create’s checks and its write: the deal is not kept, 400', async () => {
    const empty = await h.createTrack(ann, 'Empty', 'Lead');
    const gate = interleave(h.Deal(), 'create', () => ctx.as(ann).delete(`/dev/api/milestone/pipelines/${empty.id}`));
    const res = await ctx.as(ann).post(BASE).send(h.dealBody(ann, empty));
    gate.restore();
    expectError(res, 400, 'validation_failed', ['pipeline_id']);
    expect(res.body.error.message).toMatch(/changed while the deal was being saved/);
    expect(await h.Deal().countDocuments({ pipeline_id: empty.id })).toBe(0);
    expect(await h.Track().exists({ _id: empty.id })).toBeNull();
  });

  it('a deal placed in a track while it is being deleted: the track is put back, 400', async () => {
    const track = await h.createTrack(ann, 'Busy', 'Lead');
    let placed: request.Response | undefined;
    const gate = interleave(h.Track(), 'deleteOne', async () => {
      placed = await ctx.as(ann).post(BASE).send(h.dealBody(ann, track));
    });
    const res = await ctx.as(ann).delete(`/dev/api/milestone/pipelines/${track.id}`);
    gate.restore();
    expect(placed!.status).toBe(200);
    expectError(res, 400, 'track_not_empty');
    expect((await h.tracks(ann)).find((t) => t.id === track.id)).toEqual(track);
    expect((await ctx.as(ann).get(`${BASE}/${placed!.body.id}`)).body.track).toBe('Busy');
  });

  it('a deal placed in a milestone while K3 removes it: the milestones are put back, 400', async () => {
    let placed: request.Response | undefined;
    const gate = interleaveLean(h.Track(), 'findOneAndUpdate', async () => {
      placed = await ctx.as(ann).post(BASE).send(h.dealBody(ann, sales, { milestone: 'Demo' }));
    });
    const res = await ctx.as(ann).put('/dev/api/milestone/pipelines').send({ id: sales.id, name: 'Sales', milestone: 'Lead,Won' });
    gate.restore();
    expect(placed!.status).toBe(200);
    expectError(res, 400, 'track_not_empty');
    expect((await h.tracks(ann)).find((t) => t.id === sales.id)!.milestones).toBe('Lead,Demo,Won');
    expect((await ctx.as(ann).get(`${BASE}/byPipeline/based?pipeline_id=${sales.id}`)).body.Demo).toHaveLength(1);
  });

  it('deleting a deal (D6, D7) takes its id off every note of the account; the notes stay', async () => {
    const [d1, d2, d3] = [await h.createDeal(ann, sales), await h.createDeal(ann, sales), await h.createDeal(ann, sales)];
    const note = await ctx.as(ann).post(`${BASE}/deals/notes`).send({ subject: 'Pricing', description: 'Sent', deal_ids: [d1.id, d2.id, d3.id] });
    expect(note.status).toBe(200);
    expect((await ctx.as(ann).delete(`${BASE}/${d1.id}`)).status).toBe(200);
    expect((await ctx.as(ann).post(`${BASE}/bulk`).type('form').send({ ids: JSON.stringify([d2.id]) })).status).toBe(200);
    const stored = await ctx.connection.collection('notes').findOne({ _id: note.body.id });
    expect(stored!.deals).toEqual([d3.id]);
    expect((await ctx.as(ann).get(`${BASE}/${d3.id}/notes`)).body.map((n: { id: number }) => n.id)).toEqual([note.body.id]);
  });

  it('deleting a deal leaves its contacts and track alone', async () => {
    const al = await h.contact(ann, 'Al');
    const deal = await h.createDeal(ann, sales, { contact_ids: [al.id] });
    await ctx.as(ann).delete(`${BASE}/${deal.id}`);
    expect((await ctx.as(ann).get(`/dev/api/contacts/${al.id}`)).status).toBe(200);
    expect((await h.tracks(ann)).map((t) => t.name)).toEqual(['Default', 'Sales']);
  });
});

describe('deleting a user who owns deals is refused', () => {
  const run = (...argv: string[]) => runAdminCommand(argv, ctx.accounts(), crmData(ctx.connection).users);
  const DomainUser = () => domainUserModel(ctx.connection);

  it('refused while the user owns deals; after giving them to another user the delete succeeds', async () => {
    const d1 = await h.createDeal(ann, sales, { owner_id: bea.id });
    const d2 = await h.createDeal(ann, sales, { owner_id: bea.id });
    await expect(run('delete-user', '--email', 'bea@acme.test')).rejects.toThrow('bea@acme.test owns 2 deals: give them to another user first, then delete');
    expect(await DomainUser().exists({ email: 'bea@acme.test' })).toBeTruthy();
    expect((await ctx.as(bea).get(`${BASE}/my/deals`)).body).toHaveLength(2);

    for (const deal of [d1, d2]) expect((await ctx.as(ann).put(`${BASE}/partial-update`).send({ id: deal.id, owner_id: ann.id })).status).toBe(200);
    expect(await run('delete-user', '--email', 'bea@acme.test')).toEqual(['deleted bea@acme.test']);
    expect(await DomainUser().exists({ email: 'bea@acme.test' })).toBeNull();
    expectError(await ctx.as(bea).get(`${BASE}/my/deals`), 401, 'unauthorized');
    // the deleted user can no longer be given deals
    expectError(await ctx.as(ann).put(`${BASE}/partial-update`).send({ id: d1.id, owner_id: bea.id }), 400, 'validation_failed', ['owner_id']);
    expect((await stored(d1.id))!.owner_id).toBe(ann.id);
  });

  it('tasks count as owned records too', async () => {
    const task = await ctx.as(ann).post('/dev/api/tasks').send({ subject: 'Call', type: 'CALL', priority_type: 'HIGH', due: 1_900_000_000, owner_id: String(bea.id) });
    expect(task.status).toBe(200);
    await expect(run('delete-user', '--email', 'bea@acme.test')).rejects.toThrow('bea@acme.test owns 1 tasks');
    expect(await DomainUser().exists({ email: 'bea@acme.test' })).toBeTruthy();
  });

  it('contacts count as owned records too; the account owner and unknown users are refused', async () => {
    await h.contact(bea, 'Owned by Bea');
    await expect(run('delete-user', '--email', 'bea@acme.test')).rejects.toThrow('bea@acme.test owns 1 contacts');
    await expect(run('delete-user', '--email', 'nobody@acme.test')).rejects.toThrow('No user has the email nobody@acme.test');
    await ctx.accounts().addUser({ domain: 'boss', email: 'owner@boss.test', owner: true });
    await expect(run('delete-user', '--email', 'owner@boss.test')).rejects.toThrow('owner@boss.test owns the account and cannot be deleted');
    await expect(run('delete-user')).rejects.toThrow('--email is required');
    expect(await DomainUser().countDocuments()).toBe(4);
  });

  it('a deal given to the user while the user is being deleted: the user is put back', async () => {
    let given: request.Response | undefined;
    const gate = interleave(DomainUser(), 'deleteOne', async () => {
      given = await ctx.as(ann).post(BASE).send(h.dealBody(bea, sales));
    });
    await expect(run('delete-user', '--email', 'bea@acme.test')).rejects.toThrow('bea@acme.test owns 1 deals');
    gate.restore();
    expect(given!.status).toBe(200);
    expect((await ctx.as(bea).get(`${BASE}/my/deals`)).body.map((d: { id: number }) => d.id)).toEqual([given!.body.id]);
  });

  it('a user deleted between a deal write’s checks and the write: the deal is not kept, 400', async () => {
    const gate = interleave(h.Deal(), 'create', () => run('delete-user', '--email', 'bea@acme.test'));
    const res = await ctx.as(ann).post(BASE).send(h.dealBody(bea, sales));
    gate.restore();
    expectError(res, 400, 'validation_failed', ['owner_id']);
    expect(await h.Deal().countDocuments()).toBe(0);
    expect(await DomainUser().exists({ email: 'bea@acme.test' })).toBeNull();
  });
});
