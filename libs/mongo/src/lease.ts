import { randomUUID } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';
import { isDuplicateKey } from './counter';
import { driverCollection } from './driver-collection';

/** One named lease: at most one holder at a time, until it releases or `expires_at` passes. */
interface LeaseDoc {
  _id: string;
  holder: string | null;
  expires_at: Date;
}

const leaseSchema = new Schema<LeaseDoc>({ _id: String, holder: String, expires_at: Date }, { versionKey: false });

const leases = (connection: Connection) =>
  driverCollection<LeaseDoc>(connection.models.Lease ?? connection.model<LeaseDoc>('Lease', leaseSchema, 'leases'));


export interface LeaseOptions {
  /** How long the lease lasts without renewal: a holder that dies (SIGKILL) blocks the work this long at most. */
  ttlMs: number;
}

export interface HeldLease {
  /** This holding's token, unique per acquisition (the id of the run it guards). */
  readonly token: string;
  /** Aborted when the lease is lost: a renewal found another holder, or could not be written before it expired. */
  readonly lost: AbortSignal;
  /** Stops renewing and frees the lease for the next taker at once (a no-op once lost). */
  release(): Promise<void>;
}

/**
 * Takes the named lease when it is free or expired, and renews it every third of `ttlMs` until
 * released; answers undefined when another process holds it. The lease lives in the `leases`
 * collection, so it holds across replicas. Expiry uses each process's clock: clocks must agree to
 * well within `ttlMs` (NTP gives milliseconds).
 */
export async function tryLease(connection: Connection, name: string, { ttlMs }: LeaseOptions): Promise<HeldLease | undefined> {
  const token = randomUUID();
  const now = Date.now();
  try {
    // on a held lease the filter misses, and the upsert's insert of the same _id is a duplicate key
    await leases(connection).updateOne(
      { _id: name, $or: [{ holder: null }, { expires_at: { $lte: new Date(now) } }] },
      { $set: { holder: token, expires_at: new Date(now + ttlMs) } },
      { upsert: true },
    );
  } catch (err) {
    if (isDuplicateKey(err)) return undefined;
    throw err;
  }
  return holdLease(connection, name, token, ttlMs, now + ttlMs);
}

function holdLease(connection: Connection, name: string, token: string, ttlMs: number, expiresAt: number): HeldLease {
  const lost = new AbortController();
  let renewal: Promise<void> | undefined;
  // Lost at its expiry unless renewed: a renewal stuck on a stalled database may answer only after
  // another process has taken the lease.
  let expiry: NodeJS.Timeout | undefined;
  const expireAt = () => {
    clearTimeout(expiry);
    expiry = setTimeout(() => lost.abort(new Error(`lease ${name} expired: not renewed in time`)), Math.max(0, expiresAt - Date.now()));
    expiry.unref();
  };
  expireAt();
  const renew = async () => {
    const now = Date.now();
    try {
      const renewed = await leases(connection).updateOne({ _id: name, holder: token }, { $set: { expires_at: new Date(now + ttlMs) } });
      if (lost.signal.aborted) return;
      if (renewed.matchedCount) {
        expiresAt = now + ttlMs;
        expireAt();
      } else lost.abort(new Error(`lease ${name} was taken over`));
    } catch {
      // the database did not answer: still ours until it expires (the timer above), then another process may take it
    }
  };
  const timer = setInterval(() => {
    renewal ??= renew().finally(() => (renewal = undefined));
  }, Math.max(10, Math.floor(ttlMs / 3)));
  timer.unref();
  lost.signal.addEventListener('abort', () => (clearInterval(timer), clearTimeout(expiry)), { once: true });
  return {
    token,
    lost: lost.signal,
    async release() {
      clearInterval(timer);
      clearTimeout(expiry);
      await renewal;
      if (lost.signal.aborted) return;
      await leases(connection).updateOne({ _id: name, holder: token }, { $set: { holder: null, expires_at: new Date() } });
    },
  };
}

/** The token of the current holder of the named lease, or undefined when it is free or expired. */
export async function leaseHolder(connection: Connection, name: string): Promise<string | undefined> {
  const doc = await leases(connection).findOne({ _id: name });
  return doc?.holder && doc.expires_at.getTime() > Date.now() ? doc.holder : undefined;
}
