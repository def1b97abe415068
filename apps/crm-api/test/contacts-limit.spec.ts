import type { Response } from 'supertest';
import { company, person, setupCrmApp, type TestUser } from './setup-app';
import { storedState } from './expectations';
import { contactSlots } from '../src/contacts/contact-slots';

/** 406 when the account holds its contact limit (C3, and C4 without an id). */
const LIMIT = 3;
const ctx = setupCrmApp({ contactLimit: LIMIT });
const stored = () => storedState(ctx.connection);

function expectLimit(res: Response) {
  expect(res.status).toBe(406);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual({ error: { status: 406, code: 'contact_limit_reached', message: expect.stringContaining(String(LIMIT)) } });
}

const contactCount = async (user: TestUser) => (await ctx.Account.findById(user.account).lean())!.contact_count;
const reservations = async (user: TestUser) => (await ctx.Account.findById(user.account).lean())!.contact_reservations;

let ann: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
});

async function fill(user: TestUser, n = LIMIT) {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await ctx.as(user).post('/dev/api/contacts').send(person(`P${i}`, `p${i}@x.test`));
    expect(res.status).toBe(200);
    ids.push(res.body.id);
  }
  return ids;
}

describe('contact limit (406)', () => {
  it('answers 406 with the error body for the create past the limit, and writes nothing', async () => {
    await fill(ann);
    expect(await contactCount(ann)).toBe(LIMIT);
    const before = await stored();
    const res = await ctx.as(ann).post('/dev/api/contacts').send(person('Extra', 'extra@x.test'));
    expectLimit(res);
    expect(await stored()).toEqual(before);
    expect(await ctx.EmailClaim.findById(`${ann.account}:extra@x.test`)).toBeNull();
    expect(await contactCount(ann)).toBe(LIMIT);
  });

  it('counts companies too', async () => {
    await fill(ann, LIMIT - 1);
    expect((await ctx.as(ann).post('/dev/api/contacts').send(company('Acme'))).status).toBe(200);
    const before = await stored();
    expectLimit(await ctx.as(ann).post('/dev/api/contacts').send(company('Beta')));
    expect(await stored()).toEqual(before);
  });

  it('applies to PUT without an id, which creates', async () => {
    await fill(ann);
    const before = await stored();
    expectLimit(await ctx.as(ann).put('/dev/api/contacts').send(person('Extra', 'extra@x.test')));
    expect(await stored()).toEqual(before);
  });

  it('still lets updates of existing contacts through at the limit', async () => {
    const [id] = await fill(ann);
    const res = await ctx.as(ann).put('/dev/api/contacts').send({ id, star_value: 4 });
    expect(res.status).toBe(200);
    expect(res.body.star_value).toBe(4);
  });

  it('frees a slot when a contact is deleted', async () => {
    const ids = await fill(ann);
    expectLimit(await ctx.as(ann).post('/dev/api/contacts').send(person('Extra')));
    expect((await ctx.as(ann).delete(`/dev/api/contacts/${ids[1]}`)).status).toBe(204);
    expect(await contactCount(ann)).toBe(LIMIT - 1);
    const res = await ctx.as(ann).post('/dev/api/contacts').send(person('Extra'));
    expect(res.status).toBe(200);
    expect(await contactCount(ann)).toBe(LIMIT);
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(LIMIT);
    expectLimit(await ctx.as(ann).post('/dev/api/contacts').send(person('Another')));
  });

  it('does not spend a slot on a refused create', async () => {
    await fill(ann, LIMIT - 1);
    const dup = await ctx.as(ann).post('/dev/api/contacts').send(person('Dup', 'p0@x.test'));
    expect(dup.status).toBe(400);
    expect(dup.body.error.code).toBe('duplicate_email');
    const bad = await ctx.as(ann).post('/dev/api/contacts').send(person('Bad', undefined, { star_value: 9 }));
    expect(bad.status).toBe(400);
    expect(await contactCount(ann)).toBe(LIMIT - 1);
    expect((await ctx.as(ann).post('/dev/api/contacts').send(person('Last'))).status).toBe(200);
  });

  it('is per account: a full account does not block another', async () => {
    await fill(ann);
    const zed = await ctx.user('other', 'zed@other.test');
    const res = await ctx.as(zed).post('/dev/api/contacts').send(person('Zed', 'p0@x.test'));
    expect(res.status).toBe(200);
    expect(await contactCount(zed)).toBe(1);
    expect(await contactCount(ann)).toBe(LIMIT);
  });

  it('never exceeds the limit under concurrent creates', async () => {
    await fill(ann, 1);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => ctx.as(ann).post('/dev/api/contacts').send(person(`C${i}`, `c${i}@x.test`))));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(LIMIT - 1);
    for (const res of results.filter((r) => r.status !== 200)) expectLimit(res);
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(LIMIT);
    expect(await contactCount(ann)).toBe(LIMIT);
    // only the stored persons hold email claims
    const claims = await ctx.EmailClaim.find().lean();
    expect(claims.map((c) => c.contact).sort()).toEqual((await ctx.Contact.find().lean()).map((c) => c._id).sort());
  });

  it('never exceeds the limit when concurrent creates race concurrent deletes', async () => {
    const ids = await fill(ann);
    const results = await Promise.all([
      ...ids.slice(0, 2).map((id) => ctx.as(ann).delete(`/dev/api/contacts/${id}`)),
      ...Array.from({ length: 8 }, (_, i) => ctx.as(ann).post('/dev/api/contacts').send(person(`C${i}`))),
    ]);
    expect(results.slice(0, 2).map((r) => r.status)).toEqual([204, 204]);
    const created = results.slice(2).filter((r) => r.status === 200);
    for (const res of results.slice(2).filter((r) => r.status !== 200)) expectLimit(res);
    expect(created.length).toBeLessThanOrEqual(2);
    const held = await ctx.Contact.countDocuments({ account: ann.account });
    expect(held).toBeLessThanOrEqual(LIMIT);
    expect(held).toBe(1 + created.length);
    expect(await contactCount(ann)).toBe(held);
  });

  it('spends no slot on the losers of an email race: a full-but-one account still takes the winner, the rest get 400, none 406', async () => {
    await fill(ann, LIMIT - 1);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => ctx.as(ann).post('/dev/api/contacts').send(person(`R${i}`, 'race@x.test'))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 200)) expect(res.body.error.code).toBe('duplicate_email');
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(LIMIT);
    expect(await contactCount(ann)).toBe(LIMIT);
    expect(await reservations(ann)).toEqual({});
  });
});

describe('contact-limit reservations left by a dead create', () => {
  const slots = () => contactSlots(LIMIT);
  /** Moves every reservation of the account past its expiry (what RESERVATION_MS of waiting does). */
  const expireReservations = async (user: TestUser) => {
    const held = (await reservations(user)) ?? {};
    const aged = Object.fromEntries(Object.keys(held).map((token) => [`contact_reservations.${token}.until`, Date.now() - 1]));
    await ctx.Account.collection.updateOne({ _id: user.account as never }, { $set: aged });
  };

  it('gives the slot of a create that died before storing its contact back once its reservation expires', async () => {
    await fill(ann, LIMIT - 1);
    await slots().reserve(ctx.storeOf(ann), 900_001); // the process dies here: nothing settles or releases it
    expect(await contactCount(ann)).toBe(LIMIT);
    expectLimit(await ctx.as(ann).post('/dev/api/contacts').send(person('Early'))); // within RESERVATION_MS the slot stays held
    expect(Object.values((await reservations(ann))!)).toEqual([{ contact: 900_001, until: expect.any(Number) }]);

    await expireReservations(ann);
    const res = await ctx.as(ann).post('/dev/api/contacts').send(person('Late'));
    expect(res.status).toBe(200);
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(LIMIT);
    expect(await contactCount(ann)).toBe(LIMIT);
    expect(await reservations(ann)).toEqual({});
    expectLimit(await ctx.as(ann).post('/dev/api/contacts').send(person('Extra')));
  });

  it('keeps the slot of a create that died after storing its contact', async () => {
    await fill(ann, LIMIT - 1);
    await slots().reserve(ctx.storeOf(ann), 900_002);
    await ctx.Contact.collection.insertOne({ ...(await ctx.Contact.findOne({ account: ann.account }).lean())!, _id: 900_002 as never, emails: [] });
    await expireReservations(ann);
    expectLimit(await ctx.as(ann).post('/dev/api/contacts').send(person('Extra')));
    expect(await contactCount(ann)).toBe(LIMIT);
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(LIMIT);
    expect(await reservations(ann)).toEqual({});
  });

  it('gives the slot back once when the stored contact of a dead create is deleted before its reservation expires', async () => {
    const [first] = await fill(ann, LIMIT - 1);
    await slots().reserve(ctx.storeOf(ann), 900_005);
    await ctx.Contact.collection.insertOne({ ...(await ctx.Contact.findById(first).lean())!, _id: 900_005 as never, emails: [] });
    expect((await ctx.as(ann).delete('/dev/api/contacts/900005')).status).toBe(204);
    expect(await contactCount(ann)).toBe(LIMIT - 1);
    expect(await reservations(ann)).toEqual({});
    await expireReservations(ann);
    expect((await ctx.as(ann).post('/dev/api/contacts').send(person('Last'))).status).toBe(200);
    expect(await contactCount(ann)).toBe(LIMIT);
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(LIMIT);
    expectLimit(await ctx.as(ann).post('/dev/api/contacts').send(person('Extra')));
  });

  it('gives each dead slot back once when many creates find them at the same time', async () => {
    await fill(ann, 1);
    await slots().reserve(ctx.storeOf(ann), 900_003);
    await slots().reserve(ctx.storeOf(ann), 900_004);
    expect(await contactCount(ann)).toBe(LIMIT);
    await expireReservations(ann);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => ctx.as(ann).post('/dev/api/contacts').send(person(`C${i}`))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    for (const res of results.filter((r) => r.status !== 200)) expectLimit(res);
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(LIMIT);
    expect(await contactCount(ann)).toBe(LIMIT);
    expect(await reservations(ann)).toEqual({});
  });
});

describe('a create whose insert was applied but whose answer was lost (the database stopped answering)', () => {
  it('answers 503 and keeps the slot and the email claim of the stored contact', async () => {
    const { MongoNetworkError } = await import('mongodb');
    const collection = ctx.connection.collection('contacts');
    const insertOne = collection.insertOne.bind(collection);
    const spy = jest.spyOn(ctx.Contact.collection, 'insertOne').mockImplementationOnce(async (...args: Parameters<typeof insertOne>) => {
      await insertOne(...args);
      throw new MongoNetworkError('connection lost after the write');
    });
    try {
      const res = await ctx.as(ann).post('/dev/api/contacts').send(person('Lost', 'lost@x.test'));
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('database_unavailable');
    } finally {
      spy.mockRestore();
    }
    const storedContacts = await ctx.Contact.find({ account: ann.account }).lean();
    expect(storedContacts.map((c) => c.emails)).toEqual([['lost@x.test']]);
    expect(await contactCount(ann)).toBe(1); // the stored contact keeps its slot
    const again = await ctx.as(ann).post('/dev/api/contacts').send(person('Twin', 'lost@x.test'));
    expect(again.status).toBe(400); // its email stays claimed
    expect(again.body.error.code).toBe('duplicate_email');
  });
});
