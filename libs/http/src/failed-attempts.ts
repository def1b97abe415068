import { createHash, randomUUID } from 'node:crypto';
import { HttpError } from '@lib/errors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Connection } from 'mongoose';
import { addressBucket } from './address-bucket';
import { attemptBuckets, isFull } from './attempt-buckets';
import { counter } from './metrics';
import { owedPlaces } from './owed-places';
import { admissionEnds, answerByOf } from './request-deadline';

export { FAILED_ATTEMPTS_COLLECTION } from './attempt-buckets';

export interface FailedAttemptSettings {
  /** Failed attempts allowed per identity (user name) from one client address within the window; its next attempt gets 429. */
  maxFailures: number;
  /** Failed attempts allowed per client address whatever the identities (default 10 × maxFailures). */
  maxAddressFailures?: number;
  windowMs: number;
  /** How long an attempt in flight holds its place unless it ends first (default ATTEMPT_PLACE_MS). */
  placeMs?: number;
  /** How long an attempt waits for places held by attempts in flight (default ATTEMPT_WAIT_MS; less when its request's deadline comes first); then 503. */
  waitMs?: number;
}

/**
 * The sign-in limit of every app: 10 failed attempts per identity and client address, and 100 per
 * client address across identities, in 15 minutes.
 */
export const DEFAULT_FAILED_ATTEMPTS: FailedAttemptSettings = { maxFailures: 10, maxAddressFailures: 100, windowMs: 15 * 60 * 1000 };

/** An attempt's place outlives the longest verification (a database read or a queued password hash, each bounded to a few seconds). */
export const ATTEMPT_PLACE_MS = 15_000;
export const ATTEMPT_WAIT_MS = 10_000;
/** Attempts one process holds in line for a place at once (per limit); more are answered 503 at once. */
export const MAX_WAITING_ATTEMPTS = 1_000;
/** How often a waiting attempt looks again at a bucket whose places are held by other processes. */
const POLL_MS = 100;

/**
 * Failed attempts (wrong credentials) counted in MongoDB, shared by every replica, in two buckets
 * per attempt: the identity it names from its client address, and the address whatever the
 * identity. An attempt takes a place in both before its credential is verified and gives it back
 * unless it failed, so a burst cannot verify more credentials than the buckets have failures left;
 * an attempt that finds the places taken by attempts in flight waits for them (correct credentials
 * are never refused for that), and a bucket whose failures reached the limit refuses with 429 without
 * verifying anything until its window (from its first failure) ends.
 */
export interface FailedAttemptLimit {
  /**
   * Runs `verify` as one attempt of `identity` from `address`; a falsy answer is a failed attempt.
   * Throws 429 (Retry-After) when a bucket is used up, 503 when the places stay taken longer than
   * the wait; `verify` throwing gives the places back. `answerBy`: when the request must be answered
   * (answerByOf(req)); the wait ends before it.
   */
  attempt<T>(address: string, identity: string, verify: () => Promise<T>, answerBy?: number): Promise<T>;
  /**
   * Wraps an authentication middleware as one attempt of `identityOf(req)` from `req.ip`: a 401 it
   * passes on is a failed attempt, counted before it is answered.
   */
  guard(identityOf: (req: Request) => string, authenticate: RequestHandler): RequestHandler;
}

const failures = counter('failed_attempts_total', 'Failed attempts (wrong credentials) counted, by limit', ['limit']);
const refusals = counter('failed_attempts_refused_total', 'Requests refused with 429: the identity or client address had no failed attempts left, by limit', ['limit']);
const busy = counter('failed_attempts_busy_total', 'Attempts answered 503: places held by attempts in flight for longer than the wait, by limit', ['limit']);

/** A bounded, opaque bucket name for an identity (a user name, a presented key): nothing a client sends is stored as it is. */
export const identityKey = (identity: string) => createHash('sha256').update(identity).digest('base64url').slice(0, 22);

interface Waiter {
  /** Whether it may try now. */
  turn: boolean;
  poke(): void;
  /** The database's error that the one trying before it met: it fails with it at once. */
  failure?: unknown;
}

const addressOf = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** A failed-attempt limit named `name` (its buckets are apart from other limits') on the connection's database. */
export function failedAttemptLimit(connection: Connection, name: string, settings: FailedAttemptSettings): FailedAttemptLimit {
  const { maxFailures, windowMs, placeMs = ATTEMPT_PLACE_MS, waitMs = ATTEMPT_WAIT_MS } = settings;
  const maxAddressFailures = settings.maxAddressFailures ?? maxFailures * 10;
  const buckets = attemptBuckets(connection, { windowMs, placeMs });
  // Per bucket, the attempts of this process in line for a place, first come first served. An
  // attempt tries when given a turn: when it comes first in line, when an attempt of this process
  // gives a place back or fails (the first in line), when the one before it took a place and left
  // room (as many as the room left), else, if first, every ~POLL_MS (a read, then the take if there
  // is room). A burst thus costs the database about one take per attempt, and goes in parallel as
  // far as the bucket has room.
  const lines = new Map<string, Waiter[]>();
  let inLine = 0;
  const wake = (key: string) => lines.get(key)?.[0]?.poke();
  const owed = owedPlaces(buckets, wake);

  /** Waits `ms` or until poked; true when the time ran out. */
  const pause = (me: Waiter, ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(true), ms);
      me.poke = () => {
        clearTimeout(timer);
        me.turn = true;
        resolve(false);
      };
    }).finally(() => (me.poke = () => (me.turn = true)));

  function tooMany(retryAfterMs: number): HttpError {
    refusals.inc({ limit: name });
    const retryAfter = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    return new HttpError(429, 'too_many_requests', `Too many failed attempts; try again in ${retryAfter} seconds`, { headers: { 'Retry-After': retryAfter } });
  }
  function overloaded(): HttpError {
    busy.inc({ limit: name });
    return new HttpError(503, 'overloaded', 'Too many sign-in attempts in progress; try again shortly', { headers: { 'Retry-After': '1' } });
  }

  /**
   * Takes a place in the bucket, waiting in line (until `deadline`) while attempts in flight hold the
   * room. `sent` is told before the take goes to the database. When the database fails, every
   * attempt in line fails with the same error at once instead of trying it again one after another
   * (a stalled database would hold each for its time bound).
   */
  async function take(key: string, id: string, limit: number, deadline: number, sent: () => void): Promise<void> {
    if (inLine >= MAX_WAITING_ATTEMPTS) throw overloaded();
    const line = lines.get(key) ?? [];
    lines.set(key, line);
    const me: Waiter = { turn: line.length === 0, poke: () => (me.turn = true) };
    line.push(me);
    inLine++;
    let left = 0;
    try {
      let polled = false;
      for (;;) {
        if (me.failure) throw me.failure;
        if (me.turn || polled) {
          me.turn = false;
          let got: Awaited<ReturnType<typeof buckets.take>>;
          try {
            const room = polled ? await buckets.room(key, limit) : { left: 1 };
            if (!isFull(room)) sent();
            got = isFull(room) ? room : await buckets.take(key, id, limit);
          } catch (err) {
            for (const other of line) {
              if (other === me) continue;
              other.failure = err;
              other.poke();
            }
            throw err;
          }
          if (!isFull(got)) {
            left = got.left;
            return;
          }
          if (got.refused) throw tooMany(got.retryAfterMs);
        }
        const wait = deadline - Date.now();
        if (wait <= 0) throw overloaded();
        polled = (await pause(me, line[0] === me ? Math.min(wait, POLL_MS * (0.5 + Math.random())) : wait)) && line[0] === me;
      }
    } finally {
      inLine--;
      const wasFirst = line[0] === me;
      line.splice(line.indexOf(me), 1);
      if (line.length === 0) lines.delete(key);
      // the next ones try at once: as many as the room this take left, or the new first in line
      else line.slice(0, Math.max(left, wasFirst ? 1 : 0)).forEach((next) => next.poke());
    }
  }

  async function attempt<T>(address: string, identity: string, verify: () => Promise<T>, answerBy = Infinity): Promise<T> {
    const prefix = `${name}:${addressBucket(address)}`;
    const held = [
      { key: `${prefix}:${identityKey(identity)}`, limit: maxFailures },
      { key: prefix, limit: maxAddressFailures },
    ];
    const id = randomUUID();
    const deadline = admissionEnds(answerBy, waitMs);
    const expires = Date.now() + placeMs;
    const taken: string[] = [];
    const release = () =>
      buckets
        .giveBack(taken, id)
        .catch(() => owed.owe(taken, id, expires, false))
        .finally(() => taken.forEach(wake));
    try {
      // the identity first: a locked identity is refused without using the address's room
      for (const { key, limit } of held) {
        // counted as taken once sent: a take the database stored but whose answer was lost (a
        // connection cut mid-command) is given back with the rest; giving back a place that was
        // never taken changes nothing
        await take(key, id, limit, deadline, () => taken.includes(key) || taken.push(key));
      }
    } catch (err) {
      await release();
      if (!(err instanceof HttpError)) owed.owe(taken, id, expires, true);
      throw err;
    }
    let result: T;
    try {
      result = await verify();
    } catch (err) {
      await release();
      throw err;
    }
    if (result) await release();
    else {
      failures.inc({ limit: name });
      // the refusal stands even if it could not be counted
      await Promise.all(taken.map((key) => buckets.fail(key, id).catch(() => undefined).finally(() => wake(key))));
    }
    return result;
  }

  return {
    attempt,
    guard: (identityOf, authenticate) => (req: Request, res: Response, next: NextFunction) => {
      let passed: unknown;
      const verify = () =>
        new Promise<boolean>((resolve) => {
          authenticate(req, res, (err?: unknown) => {
            passed = err;
            resolve(!(err instanceof HttpError && err.status === 401));
          });
        });
      attempt(addressOf(req), identityOf(req), verify, answerByOf(req)).then(() => next(passed as Error | undefined), next);
    },
  };
}
