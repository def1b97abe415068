import { createHash, randomUUID } from 'node:crypto';
import { HttpError } from '@lib/errors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Connection } from 'mongoose';
import { addressBucket } from './address-bucket';
import { attemptBuckets, type Full } from './attempt-buckets';
import { counter } from './metrics';

export { FAILED_ATTEMPTS_COLLECTION } from './attempt-buckets';

export interface FailedAttemptSettings {
  /** Failed attempts allowed per identity (user name) from one client address within the window; its next attempt gets 429. */
  maxFailures: number;
  /** Failed attempts allowed per client address whatever the identities (default 10 × maxFailures). */
  maxAddressFailures?: number;
  windowMs: number;
  /** How long an attempt in flight holds its place unless it ends first (default ATTEMPT_PLACE_MS). */
  placeMs?: number;
  /** How long an attempt waits for places held by attempts in flight (default ATTEMPT_WAIT_MS); then 503. */
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
/** Attempts one process lets wait for a place at once; more are answered 503 at once. */
export const MAX_WAITING_ATTEMPTS = 200;
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
   * the wait; `verify` throwing gives the places back.
   */
  attempt<T>(address: string, identity: string, verify: () => Promise<T>): Promise<T>;
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

const addressOf = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** A failed-attempt limit named `name` (its buckets are apart from other limits') on the connection's database. */
export function failedAttemptLimit(connection: Connection, name: string, settings: FailedAttemptSettings): FailedAttemptLimit {
  const { maxFailures, windowMs, placeMs = ATTEMPT_PLACE_MS, waitMs = ATTEMPT_WAIT_MS } = settings;
  const maxAddressFailures = settings.maxAddressFailures ?? maxFailures * 10;
  const buckets = attemptBuckets(connection, { windowMs, placeMs });
  // attempts of this process waiting for a place, woken at once when an attempt here ends
  const wakers = new Map<string, Set<() => void>>();
  let waiting = 0;

  const wake = (key: string) => wakers.get(key)?.forEach((go) => go());
  const changeOf = (key: string, ms: number) =>
    new Promise<void>((resolve) => {
      const set = wakers.get(key) ?? new Set();
      wakers.set(key, set);
      const go = () => {
        clearTimeout(timer);
        set.delete(go);
        if (set.size === 0) wakers.delete(key);
        resolve();
      };
      const timer = setTimeout(go, ms);
      set.add(go);
    });

  function tooMany(retryAfterMs: number): HttpError {
    refusals.inc({ limit: name });
    const retryAfter = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    return new HttpError(429, 'too_many_requests', `Too many failed attempts; try again in ${retryAfter} seconds`, { headers: { 'Retry-After': retryAfter } });
  }
  function overloaded(): HttpError {
    busy.inc({ limit: name });
    return new HttpError(503, 'overloaded', 'Too many sign-in attempts in progress; try again shortly', { headers: { 'Retry-After': '1' } });
  }

  /** Takes a place in the bucket, waiting (until `deadline`) while attempts in flight hold the room. */
  async function take(key: string, id: string, limit: number, deadline: number): Promise<void> {
    let found: true | Full = await buckets.take(key, id, limit);
    if (found === true) return;
    if (found.refused) throw tooMany(found.retryAfterMs);
    if (waiting >= MAX_WAITING_ATTEMPTS) throw overloaded();
    waiting++;
    try {
      for (;;) {
        if (found.refused) throw tooMany(found.retryAfterMs);
        const left = deadline - Date.now();
        if (left <= 0) throw overloaded();
        await changeOf(key, Math.min(left, POLL_MS * (0.5 + Math.random())));
        found = await buckets.room(key, limit);
        if (found === true) found = await buckets.take(key, id, limit);
        if (found === true) return;
      }
    } finally {
      waiting--;
    }
  }

  async function attempt<T>(address: string, identity: string, verify: () => Promise<T>): Promise<T> {
    const prefix = `${name}:${addressBucket(address)}`;
    const held = [
      { key: `${prefix}:${identityKey(identity)}`, limit: maxFailures },
      { key: prefix, limit: maxAddressFailures },
    ];
    const id = randomUUID();
    const deadline = Date.now() + waitMs;
    const taken: string[] = [];
    const release = () => Promise.all(taken.map((key) => buckets.giveBack(key, id).catch(() => undefined).finally(() => wake(key))));
    try {
      // the identity first: a locked identity is refused without using the address's room
      for (const { key, limit } of held) {
        await take(key, id, limit, deadline);
        taken.push(key);
      }
    } catch (err) {
      await release();
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
      attempt(addressOf(req), identityOf(req), verify).then(() => next(passed as Error | undefined), next);
    },
  };
}
