import { REVOCATION_BOUND_MS } from '@lib/mongo';
import { logCommands, type CommandLog, type LoggedCommand } from '@lib/testing';
import { dealHelpers } from './deal-helpers';
import { person, setupCrmApp, type TestUser } from './setup-app';

const ctx = setupCrmApp({ monitorCommands: true });
const deals = dealHelpers(ctx);

let log: CommandLog;
beforeAll(() => {
  log = logCommands(ctx.connection);
});
afterAll(() => log.stop());

/** Commands that look a user up by email: what authentication does on a cache miss. */
const credentialLookups = (commands: LoggedCommand[]) =>
  commands.filter((c) => c.collection === 'domain_users' && JSON.stringify(c.command.filter ?? {}).includes('"email"'));

async function seed(count: number): Promise<{ ann: TestUser; ids: number[] }> {
  const ann = await ctx.user('acme', 'ann@acme.test');
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await ctx.as(ann).post('/dev/api/contacts').send(person(`P${i}`, `p${i}@acme.test`));
    expect(res.status).toBe(200);
    ids.push(res.body.id);
  }
  return { ann, ids };
}

describe('database round trips per request (driver command monitoring)', () => {
  it('an authenticated read of one contact is one command once its owner is known: no credential lookup, no owner read', async () => {
    const { ann, ids } = await seed(1);
    const bob = await ctx.user('acme', 'bob@acme.test');
    await ctx.as(ann).post('/dev/api/contacts/change-owner').send({ owner_email: bob.email, contact_id: ids[0] }).expect(200);
    await ctx.as(ann).get(`/dev/api/contacts/${ids[0]}`).expect(200); // credentials verified, the owner read once
    log.reset();
    const res = await ctx.as(ann).get(`/dev/api/contacts/${ids[0]}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(ids[0]);
    expect(res.body.domainUser).toMatchObject({ id: bob.id, email: 'bob@acme.test' });
    expect(log.commands.map((c) => `${c.name} ${c.collection}`)).toEqual(['find contacts']);
  });

  it('owners read in a transaction are read in its snapshot and not kept; outside one, read once and then known', async () => {
    const ann = await ctx.user('acme', 'ann@acme.test');
    const bob = await ctx.user('acme', 'bob@acme.test');
    const store = ctx.storeOf(ann);
    const userReads = () => log.commands.filter((c) => c.collection === 'domain_users' && c.name === 'find').length;
    log.reset();
    expect((await store.transaction(() => store.users.byIds([bob.id]))).map((u) => u._id)).toEqual([bob.id]);
    expect(userReads()).toBe(1);
    expect((await store.users.byIds([bob.id])).map((u) => u._id)).toEqual([bob.id]); // not kept by the transaction's read
    expect(userReads()).toBe(2);
    expect((await store.users.byIds([bob.id])).map((u) => u._id)).toEqual([bob.id]);
    expect(userReads()).toBe(2);
    expect((await store.transaction(() => store.users.byIds([bob.id]))).map((u) => u._id)).toEqual([bob.id]); // known, but read in the transaction
    expect(userReads()).toBe(3);
  });

  it('credentials are looked up in the database once, not on every request', async () => {
    const { ids } = await seed(1);
    const bea = await ctx.user('acme', 'bea@acme.test');
    log.reset();
    for (let i = 0; i < 10; i++) await ctx.as(bea).get(`/dev/api/contacts/${ids[0]}`).expect(200);
    expect(credentialLookups(log.commands)).toHaveLength(1);
  });

  it('contact writes read the custom field definitions from the database once, and again after a definition is written', async () => {
    const { ann } = await seed(1); // the account's definitions (none) read and kept
    await new Promise((resolve) => setTimeout(resolve, 500)); // the revocation log has been read: the cache answers
    const definitionReads = () => log.commands.filter((c) => c.collection === 'custom_fields' && c.name === 'find').length;
    log.reset();
    for (let i = 0; i < 5; i++) await ctx.as(ann).post('/dev/api/contacts').send(person(`Q${i}`, `q${i}@acme.test`)).expect(200);
    expect(definitionReads()).toBe(0);
    await ctx.as(ann).post('/dev/api/custom-fields').send({ field_label: 'Seats', field_type: 'NUMBER' }).expect(200);
    // forgotten at once here, and again when the write's own entry comes back through the revocation log
    await new Promise((resolve) => setTimeout(resolve, REVOCATION_BOUND_MS + 500));
    log.reset();
    const refused = await ctx.as(ann).post('/dev/api/contacts').send({ properties: [...person('R').properties, { type: 'CUSTOM', name: 'Seats', value: 'many' }] });
    expect(refused.status).toBe(400);
    expect(definitionReads()).toBe(1);
    for (let i = 0; i < 3; i++) await ctx.as(ann).post('/dev/api/contacts').send({ properties: [...person(`S${i}`).properties, { type: 'CUSTOM', name: 'Seats', value: '3' }] }).expect(200);
    expect(definitionReads()).toBe(1);
  });

  it.each(['application/json', 'application/xml'])('every page fetch (%s) is a keyset query with limit page_size+1 and no skip, at any depth', async (accept) => {
    const { ann } = await seed(7);
    await ctx.as(ann).get('/dev/api/users/current-user').expect(200);
    let cursor: string | undefined;
    let pages = 0;
    const seen: string[] = [];
    do {
      log.reset();
      const res = await ctx
        .as(ann)
        .get(`/dev/api/contacts?page_size=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        .set('Accept', accept)
        .buffer(true)
        .parse((r, done) => {
          let text = '';
          r.on('data', (chunk: Buffer) => (text += chunk.toString()));
          r.on('end', () => done(null, text));
        });
      expect(res.status).toBe(200);
      const finds = log.commands.filter((c) => c.name === 'find' && c.collection === 'contacts');
      expect(finds).toHaveLength(1);
      expect(finds[0].command.limit).toBe(3);
      expect(finds[0].command).not.toHaveProperty('skip');
      expect(log.commands.some((c) => 'skip' in c.command)).toBe(false);
      if (pages > 0) expect(JSON.stringify(finds[0].command.filter)).toMatch(/"\$or":\[\{"created_time":\{"\$gt"/);
      const text = res.body as string;
      // the names as JSON strings or XML text: a bare /P\d/ also matched inside the signed cursor now and then
      seen.push(...[...text.matchAll(/[">](P\d)["<]/g)].map((m) => m[1]));
      const match = accept === 'application/json' ? /"cursor":"([^"]+)"/.exec(text) : /<cursor>([^<]+)<\/cursor>/.exec(text);
      cursor = match?.[1];
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect([...new Set(seen)]).toEqual(['P0', 'P1', 'P2', 'P3', 'P4', 'P5', 'P6']);
  });

  it('every deal page (D1) is a keyset query with limit page_size+1 and no skip, at any depth', async () => {
    const ann = await ctx.user('acme', 'ann@acme.test');
    const track = await deals.defaultTrack(ann);
    const created: number[] = [];
    for (let i = 0; i < 5; i++) created.push((await deals.createDeal(ann, track, { name: `Deal ${i}` })).id);
    let cursor: string | undefined;
    const seen: number[] = [];
    let pages = 0;
    do {
      log.reset();
      const res = await ctx.as(ann).get(`/dev/api/opportunity?page_size=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`).set('Accept', 'application/json');
      expect(res.status).toBe(200);
      const finds = log.commands.filter((c) => c.name === 'find' && c.collection === 'deals');
      expect(finds).toHaveLength(1);
      expect(finds[0].command.limit).toBe(3);
      expect(log.commands.some((c) => 'skip' in c.command)).toBe(false);
      if (pages > 0) expect(JSON.stringify(finds[0].command.filter)).toMatch(/"\$or":\[\{"created_time":\{"\$gt"/);
      seen.push(...res.body.map((d: { id: number }) => d.id));
      cursor = res.body[res.body.length - 1]?.cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(created);
  });

  it("D9 reads the track once, then per batch of deals their contacts and notes: not the track's name again, not the owners it knows", async () => {
    const ann = await ctx.user('acme', 'ann@acme.test');
    const track = await deals.createTrack(ann, 'Board', 'Open,Won');
    const contact = await deals.contact(ann, 'Al', 'al@acme.test');
    for (let i = 0; i < 3; i++) await deals.createDeal(ann, track, { name: `Deal ${i}`, contact_ids: [contact.id] });
    const path = `/dev/api/opportunity/byPipeline/based?pipeline_id=${track.id}`;
    await ctx.as(ann).get(path).set('Accept', 'application/json').expect(200); // the owner read once
    log.reset();
    const res = await ctx.as(ann).get(path).set('Accept', 'application/json');
    expect(res.status).toBe(200);
    expect(res.body.Open.map((d: { name: string; track: string; owner: { id: number }; contacts: { id: number }[] }) => [d.name, d.track, d.owner.id, d.contacts.map((c) => c.id)])).toEqual(
      [0, 1, 2].map((i) => [`Deal ${i}`, 'Board', ann.id, [contact.id]]),
    );
    expect(log.commands.map((c) => `${c.name} ${c.collection}`)).toEqual(['find tracks', 'find deals', 'find contacts', 'find notes']);
  });
});
