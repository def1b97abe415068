import { crossTenantSweep, hostileInputSweep, roleSweep, securitySweep, type SecuritySweepTarget, snapshotDatabase } from '@lib/testing';
import type { AnyRoute } from '@lib/routing';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { apiKeyModel } from '../src/keys/api-key.model';
import { badTokens, PASSWORD, storeArticles, storeUser, type StoredUser } from './sweep-fixture';
import { MASTER_KEY, setupNewsApp } from './setup-app';

// the sweeps send hundreds of refused credentials from one address: the brute-force limit
// (tested in auth-rate-limit.spec.ts) would turn them into 429s
const ctx = setupNewsApp({ authLimit: { maxFailures: 1_000_000, windowMs: 60_000 } });

const basic = (email: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` });
const WRONG_MASTER_KEY = `${MASTER_KEY}x`;

interface Seeded {
  admin: StoredUser;
  user: StoredUser;
  /** Another plain user, the target of path ids and emails. */
  other: StoredUser;
  /** An admin deleted after signing in: their token must be refused everywhere. */
  deletedAdminToken: string;
  /** An API key of a user deleted afterwards. */
  deletedUserKey: string;
}
let seeded: Seeded;

async function seed(): Promise<void> {
  const admin = await storeUser(ctx.connection, 'admin@example.com', 'admin');
  const user = await storeUser(ctx.connection, 'user@example.com');
  const other = await storeUser(ctx.connection, 'other@example.com');
  const deleted = await storeUser(ctx.connection, 'gone@example.com', 'admin');
  // a key of theirs, stored as POST /users/me/keys stores it (their token is not used: the cache would keep them)
  const deletedUserKey = `nk_${4242}_${'k'.repeat(43)}`;
  await apiKeyModel(ctx.connection).create({ _id: 4242, user: deleted.id, name: 'left behind', slot: 0, hash: createHash('sha256').update(deletedUserKey).digest('base64url'), created_at: new Date() });
  await ctx.User.deleteOne({ _id: deleted.id });
  await storeArticles(ctx.connection);
  seeded = { admin, user, other, deletedAdminToken: deleted.token, deletedUserKey };
}

const takesMasterKey = (route: AnyRoute) => route.method === 'post' && (route.path === '/users' || route.path === '/auth');

const target: SecuritySweepTarget = {
  get app() {
    return ctx.app;
  },
  // an admin, so that input reaches validation on every route; POST /auth takes Basic, POST /users only the master key
  credentials: (route) => (route.path === '/auth' ? basic(seeded.admin.email, PASSWORD) : seeded.admin.bearer),
  credentialQuery: (route): Record<string, string> => (takesMasterKey(route) ? { access_token: MASTER_KEY } : {}),
  snapshot: () => snapshotDatabase(ctx.connection),
  sample: (name) => ({ id: seeded.other.id, email: seeded.other.email })[name],
  seed,
  isPublic: (route) => !route.security?.length && ['/healthz', '/readyz', '/openapi.json', '/version'].includes(route.path),
  get wrongCredentials() {
    const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
    return [
      ...Object.values(badTokens(seeded.admin.id)).map(bearer),
      bearer(seeded.deletedAdminToken),
      bearer(WRONG_MASTER_KEY),
      { Authorization: 'Bearer ' },
      basic(seeded.admin.email, 'wrong-password-1'),
      basic(seeded.admin.email, PASSWORD), // right password, but no master key
      { Authorization: 'Basic !!!not-base64' },
      // API keys: made up, and one of a deleted user (taken by GET /news, /news/{id}, /companies; refused everywhere)
      { 'X-Api-Key': `nk_1_${'A'.repeat(43)}` },
      { 'X-Api-Key': seeded.deletedUserKey },
    ];
  },
  get wrongCredentialQueries() {
    const { expired, tampered } = badTokens(seeded.admin.id);
    const queries: Record<string, string>[] = [
      { access_token: WRONG_MASTER_KEY },
      { access_token: expired },
      { access_token: tampered },
      { access_token: seeded.deletedAdminToken },
      { apiKey: seeded.deletedUserKey },
      { apiKey: 'not-a-key' },
    ];
    return queries;
  },
};

describe('news-api hostile input, generated from the route table', () => {
  hostileInputSweep(target);
});

describe('news-api security sweep, generated from the route table', () => {
  securitySweep(target);
});

describe('news-api roles, generated from the route table', () => {
  // a plain user: every admin route (the ones documenting 403) refuses them
  roleSweep({
    get app() {
      return ctx.app;
    },
    credentials: () => seeded.user.bearer,
    snapshot: target.snapshot,
    sample: target.sample,
    seed,
  });
});

describe('news-api cross-user sweep, generated from the route table', () => {
  const MARKER = 'zq7victim';
  let victim: StoredUser;
  crossTenantSweep({
    get app() {
      return ctx.app;
    },
    async setup() {
      await seed();
      victim = await storeUser(ctx.connection, `${MARKER}@example.com`);
      // a users-list cursor whose page holds the victim (admin, user and other come first)
      const page = await request(ctx.app).get('/users?limit=3').set(seeded.admin.bearer);
      expect([page.status, typeof page.body.next_cursor]).toEqual([200, 'string']);
      return {
        values: { id: victim.id, email: victim.email, cursor: page.body.next_cursor },
        marker: MARKER,
        // only an admin may read another user's record: they must see the marker through the same requests
        owner: seeded.admin.bearer,
        intruder: seeded.user.bearer,
      };
    },
    snapshotOwner: async () => JSON.stringify(await ctx.User.findById(victim.id).lean()),
  });
});
