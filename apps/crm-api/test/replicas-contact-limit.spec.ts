import { useReplicas } from '@lib/testing';
import { accountModel } from '../src/accounts/account.model';
import { crmData } from '../src/wiring';
import { contactModel } from '../src/contacts/contact.model';
import { person } from './setup-app';

// Three crm-api processes on one database with a small contact limit: the limit holds across
// replicas, and a replica killed (SIGKILL) while creating contacts leaks no slot.
const LIMIT = 60;
const replicas = useReplicas({ entry: 'apps/crm-api/src/main.ts', replicas: 3, env: { CRM_CONTACT_LIMIT: String(LIMIT) } });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let seq = 0;
async function addUser() {
  const domain = `acme${++seq}`;
  const email = `ann@${domain}.test`;
  const { user, apiKey } = await crmData(replicas.db.connection).accounts.addUser({ domain, email });
  return { email, key: apiKey, account: user.account };
}
type User = Awaited<ReturnType<typeof addUser>>;

const create = (agent: ReturnType<typeof replicas.next>, user: User, body: object) =>
  agent.post('/dev/api/contacts').auth(user.email, user.key).set('Accept', 'application/json').send(body);

/**
 * A create as a client following the API's 503 contract would send it: nothing was created, so it
 * tries again after Retry-After (on a loaded machine a create can miss its reservation's deadline
 * or the database time bound).
 */
async function createPatiently(agent: ReturnType<typeof replicas.next>, user: User, body: object) {
  for (let attempt = 1; ; attempt++) {
    const res = await create(agent, user, body);
    if (res.status !== 503 || attempt === 5) return res;
    expect(res.headers['retry-after']).toBeDefined();
    await pause(Number(res.headers['retry-after']) * 1000);
  }
}

const account = async (user: User) => (await accountModel(replicas.db.connection).findById(user.account).lean())!;
const stored = (user: User) => contactModel(replicas.db.connection).countDocuments({ account: user.account });

/** Fills the account through the live replicas until they answer 406; answers how many were created. */
async function fillUp(user: User, live: number[]): Promise<number> {
  let created = 0;
  for (let n = 0; ; n++) {
    const res = await createPatiently(replicas.replica(live[n % live.length]), user, person(`F${n}`));
    if (res.status === 406) return created;
    expect(res.status).toBe(200);
    created++;
  }
}

describe('crm-api on three replicas: the contact limit', () => {
  let killed = false;
  afterEach(async () => {
    if (killed) await replicas.restart(1);
    killed = false;
  }, 60_000);

  it('leaks no slot when a replica is killed (SIGKILL) with many creates in flight: after the reclaim bound the account takes exactly its limit', async () => {
    const user = await addUser();
    // 40 creates in flight on replica 1, a few on the others; replica 1 dies once some have landed
    const doomed = Array.from({ length: 40 }, (_, n) =>
      create(replicas.replica(1), user, person(`K${n}`, `k${n}@x.test`)).then(
        (res) => res.status,
        () => 'lost' as const,
      ),
    );
    const others = Array.from({ length: 6 }, (_, n) => createPatiently(replicas.replica(n % 2 === 0 ? 0 : 2), user, person(`O${n}`, `o${n}@x.test`)));
    for (let i = 0; i < 400 && (await stored(user)) < 3; i++) await pause(10);
    await replicas.kill(1, 'SIGKILL');
    killed = true;
    const outcomes = await Promise.all(doomed);
    expect((await Promise.all(others)).map((res) => res.status)).toEqual(Array(6).fill(200));
    // a 503 (the create missed its deadline on a loaded machine) stored nothing and gave its slot back: the counts below prove it
    expect(outcomes.filter((o) => o === 200 || o === 'lost' || o === 503)).toHaveLength(40);
    expect(outcomes).toContain('lost'); // the kill caught creates in flight

    // right after the kill: the count is the stored contacts plus the slots of dead creates whose contact was never stored
    const afterKill = await account(user);
    const dead = Object.values(afterKill.contact_reservations ?? {});
    const Contact = contactModel(replicas.db.connection);
    const unstored = (await Promise.all(dead.map(async (r) => (await Contact.exists({ _id: r.contact })) === null))).filter(Boolean).length;
    expect(afterKill.contact_count).toBe((await stored(user)) + unstored);

    // the reclaim bound (RESERVATION_MS) passes: simulated by ageing the dead reservations
    await accountModel(replicas.db.connection).collection.updateOne(
      { _id: user.account as never },
      { $set: Object.fromEntries(Object.keys(afterKill.contact_reservations ?? {}).map((token) => [`contact_reservations.${token}.until`, Date.now() - 1])) },
    );
    const before = await stored(user);
    const added = await fillUp(user, [0, 2]);
    expect(before + added).toBe(LIMIT);
    expect(await stored(user)).toBe(LIMIT);
    const full = await account(user);
    expect(full.contact_count).toBe(LIMIT);
    expect(full.contact_reservations ?? {}).toEqual({});
  }, 120_000);

  it('concurrent creates racing on one email across replicas leave the count exact and spend no slot on the losers', async () => {
    const user = await addUser();
    // the account one short of its limit
    for (let n = 0; n < LIMIT - 1; n++) expect((await createPatiently(replicas.next(), user, person(`P${n}`))).status).toBe(200);
    const race = await Promise.all(Array.from({ length: 30 }, (_, n) => create(replicas.next(), user, person(`R${n}`, 'same@x.test'))));
    const statuses = race.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200)).toEqual(Array(29).fill(400));
    for (const res of race.filter((r) => r.status === 400)) expect(res.body.error.code).toBe('duplicate_email');
    expect(await stored(user)).toBe(LIMIT);
    expect((await account(user)).contact_count).toBe(LIMIT);
    expect((await create(replicas.next(), user, person('Extra'))).status).toBe(406);
  }, 120_000);
});
