import { DEFAULT_FAILED_ATTEMPTS } from '@lib/http';
import { runScript, useReplicas } from '@lib/testing';
import { REVOCATION_BOUND_MS } from '@lib/mongo';
import { crmData } from '../src/wiring';
import { contactModel } from '../src/contacts/contact.model';
import { person } from './setup-app';

// Three crm-api processes on one database, each with its own credential cache.
const replicas = useReplicas({ entry: 'apps/crm-api/src/main.ts', replicas: 3 });
const ALL = [0, 1, 2];
// a refused (revoked) credential counts as a failed attempt too: each test starts with none
afterEach(() => replicas.db.connection.collection('failed_attempts').deleteMany({}));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface User {
  email: string;
  key: string;
  id: number;
}

let seq = 0;
async function addUser(): Promise<User> {
  const email = `u${++seq}@acme.test`;
  const { user, apiKey } = await crmData(replicas.db.connection).accounts.addUser({ domain: 'acme', email });
  return { email, key: apiKey, id: user._id };
}

const me = (i: number, email: string, key: string) => replicas.replica(i).get('/dev/api/users/current-user').auth(email, key).set('Accept', 'application/json');
const statusesOnAll = async (email: string, key: string) => Promise.all(ALL.map(async (i) => (await me(i, email, key)).status));

/** `npm run crm:admin -- …` as its own process, against the replicas' database; resolves when it has answered (exited). */
async function admin(...args: string[]): Promise<string> {
  const result = await runScript('apps/crm-api/src/admin.ts', args, { CRM_MONGO_URL: replicas.mongoUrl });
  if (result.code !== 0) throw new Error(`crm:admin ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/** Waits until the revocation bound has passed since `acknowledged`: every request sent after that must see the change. */
const boundAfter = async (acknowledged: number) => pause(Math.max(0, acknowledged + REVOCATION_BOUND_MS - Date.now()));

/** The user's credential verified, and so cached, on every replica. */
async function warm(user: User): Promise<void> {
  for (let round = 0; round < 2; round++) expect(await statusesOnAll(user.email, user.key)).toEqual([200, 200, 200]);
}

describe('crm-api on three replicas: a change made by the admin CLI reaches every replica within 1 s', () => {
  it.each([['revoke-key'], ['disable'], ['delete-user']])('%s: the cached credential is refused by every replica', async (command) => {
    const user = await addUser();
    await warm(user);
    await admin(command, '--email', user.email);
    const acknowledged = Date.now();
    await boundAfter(acknowledged);
    expect(await statusesOnAll(user.email, user.key)).toEqual([401, 401, 401]);
  }, 60_000);

  it('issue-key: the old key stops and the new one works on every replica', async () => {
    const user = await addUser();
    await warm(user);
    const out = await admin('issue-key', '--email', user.email);
    const acknowledged = Date.now();
    const fresh = /: (\S+)\s*$/.exec(out)?.[1] ?? '';
    expect(fresh).not.toBe('');
    await boundAfter(acknowledged);
    expect(await statusesOnAll(user.email, user.key)).toEqual([401, 401, 401]);
    expect(await statusesOnAll(user.email, fresh)).toEqual([200, 200, 200]);
  }, 60_000);

  it('make-admin: every replica answers with the new role', async () => {
    const user = await addUser();
    await warm(user);
    await admin('make-admin', '--email', user.email);
    await boundAfter(Date.now());
    const answers = await Promise.all(ALL.map((i) => me(i, user.email, user.key)));
    expect(answers.map((res) => [res.status, res.body.is_admin])).toEqual([
      [200, true],
      [200, true],
      [200, true],
    ]);
  }, 60_000);

  it('a disabled user writes nothing once the change is acknowledged, on any replica', async () => {
    const user = await addUser();
    await warm(user);
    const Contact = contactModel(replicas.db.connection);
    const answers: { sent: number; status: number }[] = [];
    let acknowledged = Infinity;
    let writing = true;
    // one writer per replica, creating contacts as the user until well after the change
    const writers = ALL.map(async (i) => {
      for (let n = 0; writing; n++) {
        const sent = Date.now();
        const res = await replicas
          .replica(i)
          .post('/dev/api/contacts')
          .auth(user.email, user.key)
          .set('Accept', 'application/json')
          .send(person(`W${i}-${n}`));
        answers.push({ sent, status: res.status });
        if (sent > acknowledged + 500) writing = false;
      }
    });
    await pause(300);
    await admin('disable', '--email', user.email);
    acknowledged = Date.now();
    await Promise.all(writers);

    const after = answers.filter((a) => a.sent >= acknowledged);
    expect(after.length).toBeGreaterThanOrEqual(3);
    // refused: 401, or 429 once the refusals used up the address's failed attempts
    expect(after.filter((a) => a.status !== 401 && a.status !== 429)).toEqual([]);
    expect(answers.some((a) => a.status === 401)).toBe(true); // refusals began once the change was stored, before the CLI exited
    const created = answers.filter((a) => a.status === 200).length;
    expect(await Contact.countDocuments({ owner: user.id })).toBe(created);
  }, 60_000);
});

describe('crm-api on three replicas: wrong credentials are limited per email and client address across replicas', () => {
  const { maxFailures } = DEFAULT_FAILED_ATTEMPTS;
  const wrongKey = (email: string, key: string) => replicas.next().get('/dev/api/users/current-user').auth(email, key).set('Accept', 'application/json');

  it('a stale key: 30 wrong keys spread over the replicas answer 10 × 401, then 429 for that email on every replica, while a colleague is served everywhere', async () => {
    const stale = await addUser();
    const colleague = await addUser();
    const statuses: number[] = [];
    for (let n = 0; n < 30; n++) statuses.push((await wrongKey(stale.email, `wrong-key-${n}`)).status);
    expect(statuses).toEqual([...Array(maxFailures).fill(401), ...Array(30 - maxFailures).fill(429)]);
    // the right key of the locked email, which no replica has verified, is refused everywhere without being checked
    const blocked = await Promise.all(ALL.map((i) => me(i, stale.email, stale.key)));
    for (const res of blocked) {
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body.error).toMatchObject({ code: 'too_many_requests', message: expect.stringContaining('Too many failed attempts') });
    }
    // the colleague's key, not cached anywhere either, works on every replica
    expect(await statusesOnAll(colleague.email, colleague.key)).toEqual([200, 200, 200]);
  }, 60_000);

  it('concurrent correct requests (no replica has verified them) next to a stale key are never refused and never counted', async () => {
    const stale = await addUser();
    const nearLimit = await addUser();
    for (let n = 0; n < maxFailures; n++) expect((await wrongKey(stale.email, `old-${n}`)).status).toBe(401);
    for (let n = 0; n < maxFailures - 1; n++) expect((await wrongKey(nearLimit.email, `wrong-${n}`)).status).toBe(401);
    const users = await Promise.all([addUser(), addUser(), addUser()]);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, n) => me(n % 3, users[n % 3].email, users[n % 3].key)));
    expect(answers.map((res) => res.status)).toEqual(Array(30).fill(200));
    // one failure left for nearLimit: its 10th wrong key is a 401, the next attempt a 429
    expect((await wrongKey(nearLimit.email, 'wrong-last')).status).toBe(401);
    expect((await wrongKey(nearLimit.email, 'wrong-after')).status).toBe(429);
  }, 60_000);
});
