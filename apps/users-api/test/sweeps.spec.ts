import { hostileInputSweep, securitySweep, type SecuritySweepTarget, snapshotDatabase } from '@lib/testing';
import type { AnyRoute } from '@lib/routing';
import { setupUsersApp } from './setup-app';

const API_KEY = 'sweep-users-key-0123456789';
const ctx = setupUsersApp({ apiKey: API_KEY });

const target: SecuritySweepTarget = {
  // reads are public, writes need the key
  isPublic: (route: AnyRoute) => route.method === 'get',
  wrongCredentials: [{ 'X-API-Key': `${API_KEY}x` }, { Authorization: 'Bearer nope' }],
  get app() {
    return ctx.app;
  },
  credentials: () => ({ 'X-API-Key': API_KEY }),
  snapshot: () => snapshotDatabase(ctx.connection),
  async seed() {
    await ctx.User.create({ _id: 1, name: 'Seed', age: 30, city: 'Perth' });
  },
};

describe('users-api hostile input, generated from the route table', () => {
  hostileInputSweep(target);
});

describe('users-api security sweep, generated from the route table', () => {
  securitySweep(target);
});
