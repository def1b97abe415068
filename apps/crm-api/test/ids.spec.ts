import { ID_EPOCH_MS } from '@lib/mongo';
import { dealHelpers } from './deal-helpers';
import { person, setupCrmApp, type TestUser } from './setup-app';

/**
 * Ids reveal nothing of other accounts (README "Ids"): time-ordered random ids, no counter shared
 * between accounts; lists keep their order and cursors with them, and records stored with the old
 * sequential ids stay readable and pageable beside new ones.
 */
const ctx = setupCrmApp();
const deals = dealHelpers(ctx);

let ann: TestUser;
let zed: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  zed = await ctx.user('other', 'zed@other.test');
});
afterEach(() => jest.restoreAllMocks());

/** Stops the clock (Date.now) at its current value: every id made meanwhile falls in one millisecond. */
function freezeClock(): number {
  const frozen = Date.now();
  jest.spyOn(Date, 'now').mockImplementation(() => frozen);
  return frozen;
}

const createPerson = async (user: TestUser, name: string) => {
  const res = await ctx.as(user).post('/dev/api/contacts').send(person(name));
  expect(res.status).toBe(200);
  return res.body.id as number;
};
/** The millisecond an id was made in. */
const msOf = (id: number) => ID_EPOCH_MS + Math.floor(id / 4096);

describe('ids of two interleaved accounts', () => {
  it('A creates, B creates five, A creates: A\'s ids follow each other as if B had done nothing', async () => {
    // in one millisecond, where a shared counter would show B's five creates as a gap of five
    freezeClock();
    const a1 = await createPerson(ann, 'A1');
    const bs = [];
    for (let i = 0; i < 5; i++) bs.push(await createPerson(zed, `B${i}`));
    const a2 = await createPerson(ann, 'A2');
    expect(a2 - a1).toBe(1);
    expect(new Set([a1, a2, ...bs]).size).toBe(7);
  });

  it('on a running clock, ids are large safe integers made of the time and a random part, not a count', async () => {
    const before = Date.now();
    const a1 = await createPerson(ann, 'A1');
    for (let i = 0; i < 5; i++) await createPerson(zed, `B${i}`);
    const a2 = await createPerson(ann, 'A2');
    const after = Date.now();
    for (const id of [a1, a2]) {
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(msOf(id)).toBeGreaterThanOrEqual(before);
      expect(msOf(id)).toBeLessThanOrEqual(after);
    }
    expect(a2).toBeGreaterThan(a1);
  });

  it('the same holds for users (their ids are shown to their account), deals, notes, tasks, events and tracks', async () => {
    freezeClock();
    const track = await deals.defaultTrack(ann);
    const creates: Array<[string, (user: TestUser) => Promise<number>]> = [
      ['user', async (user) => (await ctx.user(user === ann ? 'acme' : 'other', `u${Math.random()}@x.test`)).id],
      ['deal', async (user) => (await ctx.as(user).post('/dev/api/opportunity').send(deals.dealBody(user, user === ann ? track : await deals.defaultTrack(user)))).body.id],
      ['note', async (user) => (await ctx.as(user).post('/dev/api/notes').send({ subject: 'S', description: 'D' })).body.id],
      ['task', async (user) => (await ctx.as(user).post('/dev/api/tasks').send({ subject: 'Call', type: 'CALL', priority_type: 'LOW', due: 1_900_000_000 })).body.id],
      ['event', async (user) => (await ctx.as(user).post('/dev/api/events').send({ title: 'Demo', start: 1_900_000_000, end: 1_900_000_100 })).body.id],
      ['track', async (user) => (await ctx.as(user).post('/dev/api/milestone/pipelines').send({ name: `T${Math.random()}`, milestone: 'A,B' })).body.id],
    ];
    for (const [what, create] of creates) {
      const a1 = await create(ann);
      for (let i = 0; i < 5; i++) await create(zed);
      const a2 = await create(ann);
      expect([what, a2 - a1]).toEqual([what, 1]);
    }
  });
});

describe('order and cursors with the new ids', () => {
  it('records made in the same second list in creation order, both ways, and the cursors walk them all', async () => {
    freezeClock(); // one created_time for all: the id alone orders them
    const made = [];
    for (let i = 0; i < 6; i++) made.push(await createPerson(ann, `P${i}`));
    const names = async (sort: string) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await ctx.as(ann).get(`/dev/api/contacts?page_size=2&global_sort_key=${sort}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status).toBe(200);
        seen.push(...res.body.map((c: { properties: Array<{ value: string }> }) => c.properties[0].value));
        cursor = res.body.at(-1).cursor;
      } while (cursor);
      return seen;
    };
    expect(await names('created_time')).toEqual(['P0', 'P1', 'P2', 'P3', 'P4', 'P5']);
    expect(await names('-created_time')).toEqual(['P5', 'P4', 'P3', 'P2', 'P1', 'P0']);
    expect([...made].sort((x, y) => x - y)).toEqual(made);
  });
});

describe('records stored with the old sequential ids', () => {
  /** Contacts as the counter made them before: ids 1, 2, 3 of this account, a day old. */
  async function legacy(user: TestUser) {
    const dayAgo = Math.floor(Date.now() / 1000) - 86_400;
    const ids = [1, 2, 3];
    const created = await ctx.as(user).post('/dev/api/contacts').send(person('Template'));
    const template = (await ctx.Contact.findById(created.body.id).lean())!;
    await ctx.Contact.deleteOne({ _id: created.body.id });
    await ctx.connection.collection('contacts').insertMany(
      ids.map((id) => ({ ...template, _id: id, properties: [{ type: 'SYSTEM', name: 'first_name', value: `Old${id}` }], created_time: dayAgo + id, updated_time: dayAgo + id })) as never[],
    );
    return ids;
  }

  it('are read, changed and deleted by their ids, and list and page with new ones in creation order', async () => {
    const [old1, old2, old3] = await legacy(ann);
    const fresh = [await createPerson(ann, 'New1'), await createPerson(ann, 'New2')];
    expect(Math.min(...fresh)).toBeGreaterThan(2 ** 48);

    expect((await ctx.as(ann).get(`/dev/api/contacts/${old2}`)).body.properties[0].value).toBe('Old2');
    const changed = await ctx.as(ann).put('/dev/api/contacts').send({ id: old3, ...person('Old3b') });
    expect([changed.status, changed.body.id]).toEqual([200, old3]);

    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const res = await ctx.as(ann).get(`/dev/api/contacts?page_size=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...res.body.map((c: { id: number }) => c.id));
      cursor = res.body.at(-1).cursor;
    } while (cursor);
    expect(seen).toEqual([old1, old2, old3, ...fresh]);

    expect((await ctx.as(ann).delete(`/dev/api/contacts/${old1}`)).status).toBe(204);
    expect(await ctx.Contact.findById(old1).lean()).toBeNull();
  });
});
