import { expectLoadServed, expectNoneMissing, expectServedThroughOutage, itServesThroughDatabaseFaults, itStartsOnceDatabaseAnswers, sendRaw, type OutageTiming, type RawRequest, useFaultyServiceApp } from '@lib/testing';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { usersService } from '../src/service';
import { userModel } from '../src/users/user.model';
import { setupUsersApp, TEST_CURSOR_SECRET } from './setup-app';

const write = (name: string): RawRequest => ({ method: 'post', url: `/users?name=${name}&age=30.5&city=Perth`, headers: {} });
const read: RawRequest = { method: 'get', url: '/users?limit=20', headers: {} };
const nameOf = (req: RawRequest) => /name=([^&]+)/.exec(req.url)?.[1];
const unavailableBody = { error: { code: 'database_unavailable', message: 'The database is unavailable; try again shortly', error_id: expect.any(String) } };
const overloadedBody = { error: { code: 'overloaded', message: expect.any(String), error_id: expect.any(String) } };

describe('users-api under load', () => {
  const ctx = setupUsersApp();

  it('200 concurrent connections of mixed reads and writes: zero 5xx, every acknowledged write stored exactly once', async () => {
    const acked: string[] = [];
    const result = await expectLoadServed(ctx.app, {
      connections: 200,
      durationMs: 2_000,
      next: (worker, n) => (n % 2 === 0 ? write(`L${worker}x${n}`) : read),
      onResponse: (req, res) => {
        if (req.method === 'post' && res.status === 200) acked.push(nameOf(req)!);
      },
      statuses: ['200'],
    });
    expect(result.total).toBeGreaterThanOrEqual(200); // every connection was answered (no timing target here)
    const stored = (await ctx.User.find({}, { name: 1 }).lean()).map((u) => u.name);
    expect(stored.length).toBe(acked.length);
    expect(stored.sort()).toEqual(acked.sort());
  }, 20_000);
});

describe('users-api when the database stops during load', () => {
  const faulty = useFaultyServiceApp((deps) => createApp({ ...deps, cursorSecret: TEST_CURSOR_SECRET }), { dbName: 'users_fault' });

  /** Load through the database's outage; what both tests check. */
  async function throughOutage(prefix: string, timing: OutageTiming) {
    const acked: string[] = [];
    await expectServedThroughOutage(faulty, timing, {
      next: (worker, n) => (n % 2 === 0 ? write(`${prefix}${worker}x${n}`) : read),
      onResponse: (req, res) => {
        if (req.method === 'post' && res.status === 200) acked.push(nameOf(req)!);
      },
      statuses: ['200', '503'],
      unavailableBody,
      overloadedBody,
    });
    // serves again without a restart
    expect((await sendRaw(faulty.port, write(`${prefix}-after`))).status).toBe(200);
    acked.push(`${prefix}-after`);
    // no acknowledged write is missing (a write cut off mid-way may be stored without an acknowledgement)
    expectNoneMissing(acked, (await userModel(faulty.connection).find({}, { name: 1 }).lean()).map((u) => u.name));
    expect(acked.length).toBeGreaterThan(1);
  }

  itServesThroughDatabaseFaults(throughOutage);
});

describe('users-api started while its database is unreachable', () => {
  itStartsOnceDatabaseAnswers({
    service: (url) => usersService(loadConfig({ MONGO_URL: url })),
    request: { method: 'post', url: '/users?name=starter&age=30&city=Perth', headers: {} },
    startedStatus: 200,
    unavailableBody,
  });
});
