import { expectLoadServed, expectNoneMissing, expectServedThroughOutage, itServesThroughDatabaseFaults, itStartsOnceDatabaseAnswers, sendRaw, type OutageTiming, type RawRequest, useFaultyServiceApp } from '@lib/testing';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { newsService } from '../src/service';
import { userModel } from '../src/users/user.model';
import { JWT_SECRET, MASTER_KEY, setupNewsApp, TEST_PUBLISHERS } from './setup-app';
import { storeArticles, storeUser } from './sweep-fixture';

const json = { 'Content-Type': 'application/json', Accept: 'application/json' };
const unavailableBody = { error: { code: 'database_unavailable', message: 'The database is unavailable; try again shortly', error_id: expect.any(String) } };
const overloadedBody = { error: { code: 'overloaded', message: expect.any(String), error_id: expect.any(String) } };
const NEWS_QUERIES = ['/news', '/news?company=BHP', '/news?q=iron%20ore&sort=oldest&limit=2', '/news?source=abc-news,guardian-au&from=2026-11-01&to=2026-11-30', '/news?company=CBA&company=FMG&limit=1'];

/**
 * Mixed traffic: GET /news with filters and GET /users/me for every connection; one connection in
 * `writerEvery` also creates users (each costs a 0.2 s password hash, so writers are few).
 */
function mixedTraffic(bearer: Record<string, string>, prefix: string, writerEvery: number) {
  return (worker: number, n: number): RawRequest => {
    const step = (worker + n) % 3;
    if (step === 0 && worker % writerEvery === 0) {
      const email = `${prefix}${worker}x${n}@load.test`; // lower case: the service stores emails lower-cased
      return { method: 'post', url: '/users', headers: json, body: JSON.stringify({ email, password: 'password-123', access_token: MASTER_KEY }) };
    }
    if (step === 1) return { method: 'get', url: '/users/me', headers: { ...json, ...bearer } };
    return { method: 'get', url: NEWS_QUERIES[(worker + n) % NEWS_QUERIES.length], headers: { ...json, ...bearer } };
  };
}

/** Emails of the users whose creation was acknowledged (201). */
function acknowledgedEmails() {
  const emails: string[] = [];
  return {
    emails,
    record(req: RawRequest, status: number) {
      if (req.method === 'post' && status === 201) emails.push(JSON.parse(String(req.body)).email);
    },
  };
}

describe('news-api under load', () => {
  const ctx = setupNewsApp();

  it('200 concurrent connections of news searches, GET /users/me and user creations: zero 5xx, every acknowledged user stored exactly once', async () => {
    const reader = await storeUser(ctx.connection, 'reader@example.com');
    await storeArticles(ctx.connection);
    const acked = acknowledgedEmails();
    const result = await expectLoadServed(ctx.app, {
      connections: 200,
      durationMs: 1_500,
      next: mixedTraffic(reader.bearer, 'l', 10),
      onResponse: (req, res) => acked.record(req, res.status),
      statuses: ['200', '201'],
    });
    expect(result.total).toBeGreaterThanOrEqual(200);
    const stored = await ctx.User.find({ email: /@load\.test$/ }, { email: 1 }).lean();
    expect(stored.map((u) => u.email).sort()).toEqual(acked.emails.sort()); // none missing, none twice
    expect(acked.emails.length).toBeGreaterThan(0);
  }, 30_000);
});

describe('news-api when the database stops during load', () => {
  let bearer: Record<string, string>;
  const faulty = useFaultyServiceApp((deps) => createApp({ ...deps, masterKey: MASTER_KEY, jwt: { secret: JWT_SECRET, expiresInSeconds: 3600 }, publishers: TEST_PUBLISHERS }), { dbName: 'news_fault',
    seed: async (connection) => {
      bearer = (await storeUser(connection, 'reader@example.com')).bearer;
      await storeArticles(connection);
    },
  });

  /** Load through the database's outage; what both tests check. */
  async function throughOutage(prefix: string, timing: OutageTiming) {
    const acked = acknowledgedEmails();
    await expectServedThroughOutage(faulty, timing, {
      next: mixedTraffic(bearer, prefix, 10),
      onResponse: (req, res) => acked.record(req, res.status),
      statuses: ['200', '201', '503'],
      unavailableBody,
      overloadedBody,
    });

    // serves again without a restart: a read and a write
    expect((await sendRaw(faulty.port, { method: 'get', url: '/news?company=BHP', headers: { ...json, ...bearer } })).status).toBe(200);
    const after = mixedTraffic(bearer, `${prefix}after`, 1)(0, 0);
    acked.record(after, (await sendRaw(faulty.port, after)).status);
    expect(acked.emails).toContain(`${prefix}after0x0@load.test`);
    // no acknowledged write is missing (a write cut off mid-way may be stored without an acknowledgement)
    expectNoneMissing(acked.emails, (await userModel(faulty.connection).find({}, { email: 1 }).lean()).map((u) => u.email));
  }

  itServesThroughDatabaseFaults(throughOutage, { stallLoadMs: 11_000 });
});

describe('news-api started while its database is unreachable', () => {
  itStartsOnceDatabaseAnswers({
    service: (url) => newsService(loadConfig({ MONGO_URL: url, NEWS_SYNC_INTERVAL: '0' })),
    request: { method: 'post', url: '/users', headers: json, body: JSON.stringify({ email: 'starter@load.test', password: 'password-123', access_token: 'news-api-development-master-key' }) },
    startedStatus: 201,
    unavailableBody,
  });
});
