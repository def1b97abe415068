import { DEFAULT_FAILED_ATTEMPTS, FAILED_ATTEMPTS_COLLECTION } from '@lib/http';
import { logCommands } from '@lib/testing';
import request from 'supertest';
import { setupCrmApp } from './setup-app';

// the production limit: 10 failures per email and address, 100 per address
const ctx = setupCrmApp({ authLimit: DEFAULT_FAILED_ATTEMPTS, monitorCommands: true });
const { maxFailures, maxAddressFailures = 0 } = DEFAULT_FAILED_ATTEMPTS;

const current = (email: string, key: string) => request(ctx.app).get('/dev/api/users/current-user').auth(email, key).set('Accept', 'application/json');
const statuses = (answers: request.Response[]) =>
  answers.reduce<Record<number, number>>((counts, res) => ({ ...counts, [res.status]: (counts[res.status] ?? 0) + 1 }), {});

function expectTooMany(res: request.Response): void {
  expect(res.status).toBe(429);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.body.error).toMatchObject({ code: 'too_many_requests', message: expect.stringContaining('Too many failed attempts') });
}

describe('crm-api failed sign-ins, per email and address', () => {
  it('40 parallel wrong keys for one email: 10 users looked up, 30 answered 429 without a lookup', async () => {
    const { ann } = await ctx.threeUsers();
    const log = logCommands(ctx.connection);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => current(ann.email, `wrong-key-${n}`)));
    log.stop();
    expect(statuses(answers)).toEqual({ 401: maxFailures, 429: 40 - maxFailures });
    answers.filter((res) => res.status === 429).forEach(expectTooMany);
    expect(log.commands.filter((c) => c.name === 'find' && c.collection === 'domain_users')).toHaveLength(maxFailures);
  });

  it('a stale key locks out its own email only: a colleague from the same address is served; the locked email is refused even with its right key, unless this process verified it recently', async () => {
    const { ann, colleague } = await ctx.threeUsers();
    expect((await ctx.as(ann).get('/dev/api/users/current-user')).status).toBe(200); // ann's key verified (cached) here
    const stale = await ctx.user('acme', 'cron@acme.test');
    for (let n = 0; n < maxFailures; n++) expect((await current(stale.email, `rotated-${n}`)).status).toBe(401);
    const log = logCommands(ctx.connection);
    expectTooMany(await current(stale.email, stale.apiKey));
    expect(log.commands.filter((c) => c.collection === 'domain_users')).toEqual([]); // refused without a lookup
    log.stop();
    expect((await ctx.as(colleague).get('/dev/api/users/current-user')).status).toBe(200);
    expect((await ctx.as(ann).post('/dev/api/contacts').send({ properties: [{ type: 'SYSTEM', name: 'first_name', value: 'Zoe' }] })).status).toBe(200);
    // a refused attempt was not counted: after the window only the 10 failures are stored
    const bucket = await ctx.connection.collection(FAILED_ATTEMPTS_COLLECTION).find({ failures: { $gt: 0 } }).toArray();
    expect(bucket.map((doc) => doc.failures).sort()).toEqual([maxFailures, maxFailures]); // the email's bucket and the address's
  });

  it(`the address ceiling: wrong keys of many emails are refused once the address has had ${maxAddressFailures} failures, in parallel too`, async () => {
    const { colleague } = await ctx.threeUsers();
    const answers = await Promise.all(Array.from({ length: maxAddressFailures + 20 }, (_, n) => current(`guess-${n}@acme.test`, 'any-key')));
    expect(statuses(answers)).toEqual({ 401: maxAddressFailures, 429: 20 });
    expectTooMany(await ctx.as(colleague).get('/dev/api/users/current-user')); // not cached: refused with the address
  });
});
