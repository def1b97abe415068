import request from 'supertest';
import { runAdminCommand } from '../src/admin/commands';
import { hashApiKey } from '../src/accounts/api-key';
import { createCredentialCache } from '../src/accounts/credential-cache';
import { person, setupCrmApp } from './setup-app';

const ctx = setupCrmApp();

const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;
const me = (email: string, key: string) => request(ctx.app).get('/dev/api/users/current-user').set('Authorization', basic(email, key)).set('Accept', 'application/json');
const admin = (...argv: string[]) => runAdminCommand(argv, ctx.accounts());

describe('credential cache: changes through the account service take effect at once', () => {
  it('revoke-key: a cached key is refused on the very next request', async () => {
    const ann = await ctx.user('acme', 'ann@acme.test');
    expect((await me(ann.email, ann.apiKey)).status).toBe(200);
    await admin('revoke-key', '--email', ann.email);
    const res = await me(ann.email, ann.apiKey);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });

  it('issue-key: the old key stops at once and the new one works', async () => {
    const ann = await ctx.user('acme', 'ann@acme.test');
    expect((await me(ann.email, ann.apiKey)).status).toBe(200);
    const lines = await admin('issue-key', '--email', ann.email);
    const fresh = lines[0].split(': ').pop()!;
    expect((await me(ann.email, ann.apiKey)).status).toBe(401);
    expect((await me(ann.email, fresh)).status).toBe(200);
  });

  it('disable and enable take effect at once', async () => {
    const ann = await ctx.user('acme', 'ann@acme.test');
    expect((await me(ann.email, ann.apiKey)).status).toBe(200);
    await admin('disable', '--email', ann.email);
    expect((await me(ann.email, ann.apiKey)).status).toBe(401);
    await admin('enable', '--email', ann.email);
    expect((await me(ann.email, ann.apiKey)).status).toBe(200);
  });

  it('make-admin shows on the next request (no stale user from the cache)', async () => {
    const ann = await ctx.user('acme', 'ann@acme.test');
    expect((await me(ann.email, ann.apiKey)).body.is_admin).toBe(false);
    await admin('make-admin', '--email', ann.email);
    expect((await me(ann.email, ann.apiKey)).body.is_admin).toBe(true);
  });

  it("make-admin and disable show at once in the views of the records the user owns (the owners' cache)", async () => {
    const ann = await ctx.user('acme', 'ann@acme.test');
    const bob = await ctx.user('acme', 'bob@acme.test');
    const made = await ctx.as(ann).post('/dev/api/contacts').send(person('Al', 'al@acme.test')).expect(200);
    await ctx.as(ann).post('/dev/api/contacts/change-owner').send({ owner_email: bob.email, contact_id: made.body.id }).expect(200);
    const owner = async () => (await ctx.as(ann).get(`/dev/api/contacts/${made.body.id}`).expect(200)).body.domainUser;
    expect(await owner()).toMatchObject({ id: bob.id, is_admin: false, is_disabled: false }); // read, and kept
    await admin('make-admin', '--email', bob.email);
    expect(await owner()).toMatchObject({ id: bob.id, is_admin: true, is_disabled: false });
    await admin('disable', '--email', bob.email);
    expect(await owner()).toMatchObject({ id: bob.id, is_admin: true, is_disabled: true });
  });

  it('a wrong key is never served from the cache', async () => {
    const ann = await ctx.user('acme', 'ann@acme.test');
    expect((await me(ann.email, ann.apiKey)).status).toBe(200);
    expect((await me(ann.email, `${ann.apiKey}x`)).status).toBe(401);
  });

  it('a change made by another process (direct database write) is honoured once the entry expires', async () => {
    // Documented behaviour across replicas: up to CREDENTIAL_TTL_MS of staleness. This process
    // still accepts the cached key right after another process revoked it...
    const ann = await ctx.user('acme', 'ann@acme.test');
    expect((await me(ann.email, ann.apiKey)).status).toBe(200);
    await ctx.connection.collection('domain_users').updateOne({ email: ann.email }, { $set: { api_key_hash: hashApiKey('other-key') } });
    expect((await me(ann.email, ann.apiKey)).status).toBe(200);
  });
});

describe('createCredentialCache', () => {
  const user = { _id: 1, account: 1, domain: 'acme', email: 'ann@acme.test', name: '', is_admin: false, is_account_owner: false, is_disabled: false, api_key_hash: hashApiKey('k1'), created_time: 0, logged_in_time: 0 };

  it('answers only for the right key, until the entry expires', async () => {
    const cache = createCredentialCache(40);
    cache.remember(user, cache.generation());
    expect(cache.lookup(user.email, 'k1')).toEqual(user);
    expect(cache.lookup(user.email, 'k2')).toBeUndefined();
    expect(cache.lookup('bea@acme.test', 'k1')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(cache.lookup(user.email, 'k1')).toBeUndefined();
  });

  it('never caches a disabled user', () => {
    const cache = createCredentialCache();
    cache.remember({ ...user, is_disabled: true }, cache.generation());
    expect(cache.lookup(user.email, 'k1')).toBeUndefined();
  });

  it('an authentication that read the user before a revocation does not put the old key back', () => {
    const cache = createCredentialCache();
    const before = cache.generation(); // authentication starts reading the user
    cache.forget(user.email); // revocation completes meanwhile
    cache.remember(user, before); // the read returns the old key
    expect(cache.lookup(user.email, 'k1')).toBeUndefined();
  });

  /** `ownersOf` with a read of one account (as the store's is) that records what it was asked for and answers from `stored`. */
  const ownersReader = (stored: (typeof user)[], account = 1) => {
    const asked: number[][] = [];
    return { asked, read: async (ids: number[]) => (asked.push(ids), stored.filter((u) => u.account === account && ids.includes(u._id))) };
  };

  it('owners: a user read as an owner is answered again for its own account only, and not once forgotten', async () => {
    const cache = createCredentialCache();
    const bea = { ...user, _id: 2, email: 'bea@acme.test' };
    const db = ownersReader([user, bea]);
    expect(await cache.ownersOf(1, [1, 2], db.read)).toEqual([user, bea]);
    expect(await cache.ownersOf(1, [2, 1, 3], db.read)).toEqual([bea, user]);
    expect(db.asked).toEqual([[1, 2], [3]]);
    const other = ownersReader([user, bea], 2);
    expect(await cache.ownersOf(2, [1], other.read)).toEqual([]); // not answered from account 1's entries: read, as account 2 (none)
    expect(other.asked).toEqual([[1]]);
    cache.forget(bea.email);
    db.asked.length = 0;
    await cache.ownersOf(1, [1, 2], db.read);
    expect(db.asked).toEqual([[2]]);
  });

  it('owners: a user shown as an owner never authorises a request; a verified user is an owner known too', async () => {
    const cache = createCredentialCache();
    const db = ownersReader([user]);
    await cache.ownersOf(1, [1], db.read);
    expect(cache.lookup(user.email, 'k1')).toBeUndefined();
    const bea = { ...user, _id: 2, email: 'bea@acme.test' };
    cache.remember(bea, cache.generation());
    expect(await cache.ownersOf(1, [2], ownersReader([]).read)).toEqual([bea]);
  });

  it('owners: a read from before a revocation is not kept, and an email given to a new user does not answer for the old id', async () => {
    const cache = createCredentialCache();
    const stale = { ...user, is_admin: true };
    // the revocation lands while the read is under way: what it returns is shown, not kept
    await cache.ownersOf(1, [1], async () => {
      cache.forget(user.email);
      return [stale];
    });
    const db = ownersReader([user]);
    expect(await cache.ownersOf(1, [1], db.read)).toEqual([user]);
    expect(db.asked).toEqual([[1]]);
    const successor = { ...user, _id: 9 }; // the user was deleted and its email given to a new one
    cache.remember(successor, cache.generation());
    db.asked.length = 0;
    expect(await cache.ownersOf(1, [1, 9], db.read)).toEqual([successor, user]);
    expect(db.asked).toEqual([[1]]);
  });

  it("owners: nothing is answered while the revocation log cannot be read, and another process's revocation reaches them", async () => {
    let fresh = true;
    const subscribers: Array<{ revoke(key: string): void; reset(): void }> = [];
    const log = { publish: async () => undefined, subscribe: (_scope: string, s: (typeof subscribers)[number]) => void subscribers.push(s), fresh: () => fresh };
    const cache = createCredentialCache(10_000, log);
    const db = ownersReader([user]);
    await cache.ownersOf(1, [1], db.read);
    await cache.ownersOf(1, [1], db.read);
    expect(db.asked).toEqual([[1]]);
    fresh = false; // the database stalls: the log is not read
    await cache.ownersOf(1, [1], db.read);
    expect(db.asked).toEqual([[1], [1]]);
    fresh = true;
    await cache.ownersOf(1, [1], db.read);
    expect(db.asked).toEqual([[1], [1]]); // kept from the read during the stall
    for (const subscriber of subscribers) subscriber.revoke(user.email); // another process changed the user
    await cache.ownersOf(1, [1], db.read);
    expect(db.asked).toEqual([[1], [1], [1]]);
  });
});
