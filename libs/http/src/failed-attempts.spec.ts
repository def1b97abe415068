import { HttpError } from '@lib/errors';
import { useTestDatabase } from '@lib/testing';
import { mongo } from 'mongoose';
import { addressBucket } from './address-bucket';
import { attemptBuckets, FAILED_ATTEMPTS_COLLECTION } from './attempt-buckets';
import { failedAttemptLimit, identityKey, type FailedAttemptSettings } from './failed-attempts';
import { metricsRegistry } from './metrics';
import { OWED_RETRY_MS } from './owed-places';
import { ADMISSION_MARGIN_MS } from './request-deadline';

const db = useTestDatabase();
const SETTINGS: FailedAttemptSettings = { maxFailures: 10, maxAddressFailures: 30, windowMs: 60_000 };
let seq = 0;

beforeAll(async () => {
  failedAttemptLimit(db.connection, 'setup', SETTINGS); // registers the model
  await db.connection.models.FailedAttempt.createIndexes();
});
afterEach(() => db.connection.collection(FAILED_ATTEMPTS_COLLECTION).deleteMany({}));

/** A limit of its own (its buckets apart from the other tests') and a verify that counts its calls. */
function setup(settings: Partial<FailedAttemptSettings> = {}) {
  const name = `limit-${++seq}`;
  const limit = failedAttemptLimit(db.connection, name, { ...SETTINGS, ...settings });
  const verified: string[] = [];
  /** A credential check taking a moment (as a database read or a hash does) that passes only `right`. */
  const check = (key: string, right = 'right') => async () => {
    verified.push(key);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return key === right;
  };
  return { name, limit, verified, check };
}

/** What an attempt ended as: its answer, or the error's status and Retry-After. */
async function outcome(run: Promise<boolean>): Promise<string> {
  try {
    return (await run) ? 'ok' : 'wrong';
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    expect(Number(err.headers?.['Retry-After'])).toBeGreaterThan(0);
    return String(err.status);
  }
}
const tally = (answers: string[]) => answers.reduce<Record<string, number>>((counts, a) => ({ ...counts, [a]: (counts[a] ?? 0) + 1 }), {});

async function sample(key: string): Promise<number> {
  const line = (await metricsRegistry.metrics()).split('\n').find((l) => l.startsWith(`${key} `));
  return line ? Number(line.slice(key.length + 1)) : 0;
}

describe('addressBucket', () => {
  it('keeps IPv4 as it is, IPv4-mapped IPv6 as IPv4', () => {
    expect(addressBucket('203.0.113.9')).toBe('203.0.113.9');
    expect(addressBucket('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressBucket('::FFFF:cb00:7109')).toBe('203.0.113.9');
  });

  it('puts every IPv6 address of one /64 in one bucket, and another /64 in another', () => {
    const one = addressBucket('2001:db8:1:2::5');
    expect(one).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(one);
    expect(addressBucket('2001:db8:1:2:abcd::1%eth0')).toBe(one);
    expect(addressBucket('2001:db8:1:3::5')).not.toBe(one);
    expect(addressBucket('2001:db8:2:2::5')).not.toBe(one);
  });

  it('keeps anything else bounded', () => {
    expect(addressBucket('unknown')).toBe('unknown');
    expect(addressBucket('x'.repeat(500))).toHaveLength(64);
  });
});

describe('failedAttemptLimit', () => {
  it('40 parallel wrong attempts of one identity: 10 verified and counted, 30 refused with 429 unverified', async () => {
    const { limit, verified, check, name } = setup();
    const before = await sample(`failed_attempts_refused_total{limit="${name}"}`);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check(`wrong-${n}`)))));
    expect(tally(answers)).toEqual({ wrong: 10, 429: 30 });
    expect(verified).toHaveLength(10);
    expect(await sample(`failed_attempts_total{limit="${name}"}`)).toBe(10);
    expect((await sample(`failed_attempts_refused_total{limit="${name}"}`)) - before).toBe(30);
    // locked: even the right key is refused without being verified
    expect(await outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('right')))).toBe('429');
    expect(verified).toHaveLength(10);
  });

  it('a locked identity leaves the other identities of the address, and itself from another address, served', async () => {
    const { limit, check } = setup();
    for (let n = 0; n < 12; n++) await outcome(limit.attempt('198.51.100.7', 'stale-cron@acme.test', check(`old-key-${n}`)));
    expect(await outcome(limit.attempt('198.51.100.7', 'stale-cron@acme.test', check('right')))).toBe('429');
    expect(await outcome(limit.attempt('198.51.100.7', 'bob@acme.test', check('right')))).toBe('ok');
    expect(await outcome(limit.attempt('198.51.100.7', 'bob@acme.test', check('typo')))).toBe('wrong');
    expect(await outcome(limit.attempt('198.51.100.8', 'stale-cron@acme.test', check('right')))).toBe('ok');
  });

  it('the address ceiling: wrong attempts of many identities are refused once the address has used up its failures', async () => {
    const { limit, check, verified } = setup();
    const answers: string[] = [];
    for (let n = 0; n < 35; n++) answers.push(await outcome(limit.attempt('198.51.100.7', `user-${n}@acme.test`, check('wrong'))));
    expect(answers).toEqual([...Array(30).fill('wrong'), ...Array(5).fill('429')]);
    expect(verified).toHaveLength(30);
    expect(await outcome(limit.attempt('198.51.100.7', 'never-tried@acme.test', check('right')))).toBe('429');
    expect(await outcome(limit.attempt('198.51.100.9', 'never-tried@acme.test', check('right')))).toBe('ok');
  });

  it('a parallel burst of many identities cannot pass the address ceiling either', async () => {
    const { limit, verified, check } = setup();
    const answers = await Promise.all(Array.from({ length: 60 }, (_, n) => outcome(limit.attempt('198.51.100.7', `user-${n}@acme.test`, check('wrong')))));
    expect(tally(answers)).toEqual({ wrong: 30, 429: 30 });
    expect(verified).toHaveLength(30);
  });

  it('IPv6: two addresses of one /64 share the buckets, another /64 has its own', async () => {
    const { limit, check } = setup();
    for (let n = 0; n < 10; n++) await outcome(limit.attempt(`2001:db8:1:2::${n + 1}`, 'ann@acme.test', check('wrong')));
    expect(await outcome(limit.attempt('2001:db8:1:2:ffff::9', 'ann@acme.test', check('right')))).toBe('429');
    expect(await outcome(limit.attempt('2001:db8:1:3::1', 'ann@acme.test', check('right')))).toBe('ok');
    for (let n = 0; n < 10; n++) await outcome(limit.attempt('::ffff:192.0.2.1', 'ann@acme.test', check('wrong')));
    expect(await outcome(limit.attempt('192.0.2.1', 'ann@acme.test', check('right')))).toBe('429');
  });

  it('30 concurrent correct attempts of one identity with 9 failures counted are all served, and not counted', async () => {
    // one place left: the correct attempts pass one after the other (waiting as long as that takes)
    const { limit, verified, check } = setup({ waitMs: 60_000 });
    for (let n = 0; n < 9; n++) await outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('wrong')));
    const answers = await Promise.all(Array.from({ length: 30 }, () => outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('right')))));
    expect(answers).toEqual(Array(30).fill('ok'));
    expect(verified).toHaveLength(39);
    expect(await outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('wrong')))).toBe('wrong');
    expect(await outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('right')))).toBe('429');
  });

  it('a verification that throws gives its places back and counts nothing', async () => {
    const { limit, name } = setup({ maxFailures: 1 });
    const broken = () => Promise.reject(new Error('database down'));
    for (let n = 0; n < 3; n++) await expect(limit.attempt('198.51.100.7', 'ann@acme.test', broken)).rejects.toThrow('database down');
    expect(await sample(`failed_attempts_total{limit="${name}"}`)).toBe(0);
    expect(await limit.attempt('198.51.100.7', 'ann@acme.test', async () => true)).toBe(true);
    const docs = await db.connection.collection(FAILED_ATTEMPTS_COLLECTION).find({ key: { $regex: `^${name}:` } }).toArray();
    expect(docs.map((doc) => [doc.failures, doc.used, doc.pending])).toEqual([
      [0, 0, {}],
      [0, 0, {}],
    ]);
  });

  it('places the database failed to take back are given back once it answers again, long before they would expire', async () => {
    const { limit, name } = setup({ maxFailures: 1, placeMs: 60_000, waitMs: 60_000 });
    const collection = db.connection.models.FailedAttempt.collection;
    const spy = jest.spyOn(collection, 'bulkWrite').mockRejectedValueOnce(new Error('database down') as never);
    try {
      // the credential check fails with the database, and so does the give-back of its place
      await expect(limit.attempt('198.51.100.7', 'ann@acme.test', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
      expect(spy).toHaveBeenCalledTimes(1);
      // the only place of the identity is free again well within its 60 s, and the next attempt is served
      expect(await limit.attempt('198.51.100.7', 'ann@acme.test', async () => true)).toBe(true);
      const docs = await db.connection.collection(FAILED_ATTEMPTS_COLLECTION).find({ key: { $regex: `^${name}:` } }).toArray();
      expect(docs.map((doc) => [doc.failures, doc.used, doc.pending])).toEqual([
        [0, 0, {}],
        [0, 0, {}],
      ]);
    } finally {
      spy.mockRestore();
    }
  });

  it('places left by a process that died mid-attempt expire: the bucket is served again after placeMs', async () => {
    const placeMs = 500;
    const { limit, check, name } = setup({ placeMs, waitMs: 100 });
    // what a killed process leaves: every place of the identity's bucket taken, never given back
    const dead = attemptBuckets(db.connection, { windowMs: SETTINGS.windowMs, placeMs });
    const key = `${name}:198.51.100.7:${identityKey('ann@acme.test')}`;
    for (let n = 0; n < 10; n++) expect(await dead.take(key, `dead-${n}`, 10)).toEqual({ left: 9 - n });
    expect(await outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('right')))).toBe('503'); // held, not refused
    // an attempt that may wait longer than the places last is served once they expire
    const patient = failedAttemptLimit(db.connection, name, { ...SETTINGS, placeMs, waitMs: 5_000 });
    expect(await outcome(patient.attempt('198.51.100.7', 'ann@acme.test', check('right')))).toBe('ok');
    // the places were taken one after another, so they expire one after another: the patient attempt
    // may be served once the first has gone, while later ones are still held
    const bucket = await db.connection.collection(FAILED_ATTEMPTS_COLLECTION).findOne({ key });
    const left = Object.keys(bucket?.pending ?? {});
    expect(left.every((id) => id.startsWith('dead-'))).toBe(true);
    expect(left.length).toBeLessThan(10);
    expect(bucket).toMatchObject({ failures: 0, used: left.length });
    // once every place has expired, the next look tidies them all away
    await new Promise((resolve) => setTimeout(resolve, placeMs));
    expect(await dead.room(key, 10)).toEqual({ left: 10 });
    expect(await db.connection.collection(FAILED_ATTEMPTS_COLLECTION).findOne({ key })).toMatchObject({ failures: 0, used: 0, pending: {} });
  });

  it('gives back a place whose take was stored but whose answer was lost, instead of holding it until it expires', async () => {
    const { limit, check, name } = setup({ maxFailures: 1, waitMs: 300 });
    const original = mongo.Collection.prototype.findOneAndUpdate;
    const lost = jest.spyOn(mongo.Collection.prototype, 'findOneAndUpdate').mockImplementationOnce(async function (this: mongo.Collection, ...args: unknown[]) {
      await (original as (...a: unknown[]) => Promise<unknown>).apply(this, args);
      throw new Error('connection closed before the answer');
    });
    await expect(limit.attempt('198.51.100.7', 'ann@acme.test', check('right'))).rejects.toThrow('connection closed');
    lost.mockRestore();
    // the only place is free again at once (held, the next attempt would wait and answer 503)
    const key = `${name}:198.51.100.7:${identityKey('ann@acme.test')}`;
    expect(await db.connection.collection(FAILED_ATTEMPTS_COLLECTION).findOne({ key })).toMatchObject({ used: 0, pending: {} });
    expect(await outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('right')))).toBe('ok');
  });

  it('gives back a place whose take the database applied only after the attempt had failed (a stalled server resuming)', async () => {
    const { limit, check, name } = setup({ maxFailures: 1, waitMs: 300 });
    const original = mongo.Collection.prototype.findOneAndUpdate;
    let applied: Promise<unknown> = Promise.resolve();
    // applied after the first round of owed places (OWED_RETRY_MS) found nothing to give back
    const late = jest.spyOn(mongo.Collection.prototype, 'findOneAndUpdate').mockImplementationOnce(function (this: mongo.Collection, ...args: unknown[]) {
      applied = new Promise((resolve) => setTimeout(resolve, OWED_RETRY_MS + 200)).then(() => (original as (...a: unknown[]) => Promise<unknown>).apply(this, args));
      return Promise.reject(new Error('no answer within the time bound'));
    });
    await expect(limit.attempt('198.51.100.7', 'ann@acme.test', check('right'))).rejects.toThrow('no answer');
    late.mockRestore();
    await applied;
    const key = `${name}:198.51.100.7:${identityKey('ann@acme.test')}`;
    const bucket = () => db.connection.collection(FAILED_ATTEMPTS_COLLECTION).findOne({ key });
    expect(await bucket()).toMatchObject({ used: 1 }); // the late take holds the only place
    // given back by the next round, not when the place expires (15 s)
    await new Promise((resolve) => setTimeout(resolve, OWED_RETRY_MS + 300));
    expect(await bucket()).toMatchObject({ used: 0, pending: {} });
    expect(await outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('right')))).toBe('ok');
  });

  it('when the database fails a take, every attempt waiting in that line fails with it at once instead of trying it again in turn', async () => {
    const { limit, check } = setup({ maxFailures: 1, waitMs: 10_000 });
    const stalled = jest.spyOn(mongo.Collection.prototype, 'findOneAndUpdate').mockImplementation(
      () => new Promise((_resolve, reject) => setTimeout(() => reject(new Error('the database did not answer')), 300)),
    );
    try {
      const started = Date.now();
      const answers = await Promise.allSettled(Array.from({ length: 20 }, () => limit.attempt('198.51.100.7', 'ann@acme.test', check('right'))));
      expect(answers.map((a) => (a.status === 'rejected' ? (a.reason as Error).message : 'served'))).toEqual(Array(20).fill('the database did not answer'));
      // one take went to the database (in turn, 20 would have, 6 s one after another)
      expect(stalled).toHaveBeenCalledTimes(1);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      stalled.mockRestore();
    }
  });

  it('answers 503 when the places stay held by attempts in flight longer than the wait', async () => {
    const { limit, check, name } = setup({ maxFailures: 1, waitMs: 300 });
    let finish: (ok: boolean) => void = () => undefined;
    const slow = limit.attempt('198.51.100.7', 'ann@acme.test', () => new Promise<boolean>((resolve) => (finish = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 100)); // the slow attempt holds the only place
    expect(await outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('right')))).toBe('503');
    expect(await sample(`failed_attempts_busy_total{limit="${name}"}`)).toBe(1);
    finish(true);
    expect(await slow).toBe(true);
    expect(await outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('right')))).toBe('ok');
  });

  it("stops waiting ADMISSION_MARGIN_MS before its request's deadline (answerBy), whatever its own wait", async () => {
    const { limit, check } = setup({ maxFailures: 1, waitMs: 10_000 });
    let finish: (ok: boolean) => void = () => undefined;
    const slow = limit.attempt('198.51.100.7', 'ann@acme.test', () => new Promise<boolean>((resolve) => (finish = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 100)); // the slow attempt holds the only place
    const started = Date.now();
    expect(await outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('right'), Date.now() + ADMISSION_MARGIN_MS + 300))).toBe('503');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(1_000);
    finish(true);
    expect(await slow).toBe(true);
  });

  it('starts the window at the first failure and forgets the failures when it ends', async () => {
    const { limit, check } = setup({ maxFailures: 2, windowMs: 600 });
    for (let n = 0; n < 2; n++) expect(await outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('wrong')))).toBe('wrong');
    expect(await outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('right')))).toBe('429');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('wrong')))).toBe('wrong');
    expect(await outcome(limit.attempt('198.51.100.7', 'ann@acme.test', check('right')))).toBe('ok');
  });
});
