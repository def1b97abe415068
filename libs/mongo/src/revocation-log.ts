import { Schema, type Connection, type Model } from 'mongoose';

/** How often each process reads the revocation log. */
export const REVOCATION_POLL_MS = 250;
/**
 * A cache that follows the log answers only while its last successful read of the log started at
 * most this long ago: a revocation acknowledged before that read is applied, so no process serves a
 * revoked entry for longer than this, also when the database stalls (the cache then misses).
 */
export const REVOCATION_BOUND_MS = 1_000;
/** Each read looks back this far: covers clock differences between processes and slow inserts. */
const LOOK_BACK_MS = 10_000;
/** Entries are deleted by the TTL index after this long (well past LOOK_BACK_MS). */
const KEEP_SECONDS = 600;

interface RevocationDoc {
  scope: string;
  key: string;
  at: Date;
}

const revocationSchema = new Schema<RevocationDoc>(
  {
    scope: { type: String, required: true },
    key: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
revocationSchema.index({ at: 1 }, { expireAfterSeconds: KEEP_SECONDS }); // the poll (entries newer than …) and expiry

export const REVOCATION_COLLECTION = 'revocations';

function revocationModel(connection: Connection): Model<RevocationDoc> {
  return connection.models.Revocation ?? connection.model<RevocationDoc>('Revocation', revocationSchema, REVOCATION_COLLECTION);
}

export interface RevocationSubscriber {
  /** An entry of the scope was revoked (by any process, this one included). */
  revoke(key: string): void;
  /** The log could not be read for a while: entries may have been missed, forget everything. */
  reset(): void;
}

/**
 * A log of revocations in the database that every process follows, so that a change made by one
 * process (a replica, the admin CLI) reaches the in-process caches of all others within
 * REVOCATION_BOUND_MS. Writers append after their change is stored (`publish`); each process reads
 * the entries of the last few seconds every REVOCATION_POLL_MS with one indexed query.
 */
export interface RevocationLog {
  /** Records that `key` of `scope` changed; resolves once the entry is stored. */
  publish(scope: string, key: string): Promise<void>;
  /** Follows the scope's entries (starts reading the log). */
  subscribe(scope: string, subscriber: RevocationSubscriber): void;
  /** True while a read of the log that started within REVOCATION_BOUND_MS has succeeded. */
  fresh(): boolean;
}

export interface RevocationLogOptions {
  pollMs?: number;
  boundMs?: number;
}

function createRevocationLog(connection: Connection, { pollMs = REVOCATION_POLL_MS, boundMs = REVOCATION_BOUND_MS }: RevocationLogOptions): RevocationLog {
  const Revocation = revocationModel(connection);
  const subscribers = new Map<string, Set<RevocationSubscriber>>();
  const seen = new Map<string, number>(); // entry id → its time, for entries still inside the look-back
  let lastGoodStart = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const each = (scope: string, run: (subscriber: RevocationSubscriber) => void) => subscribers.get(scope)?.forEach(run);

  async function poll(): Promise<void> {
    const started = Date.now();
    try {
      const entries = await Revocation.find({ at: { $gt: new Date(started - LOOK_BACK_MS) } }, { scope: 1, key: 1, at: 1 })
        .maxTimeMS(boundMs)
        .lean();
      // After a long gap, entries may have slipped past the look-back: start over.
      if (lastGoodStart !== -Infinity && started - lastGoodStart > LOOK_BACK_MS / 2) for (const set of subscribers.values()) set.forEach((s) => s.reset());
      for (const entry of entries) {
        const id = String(entry._id);
        if (seen.has(id)) continue;
        seen.set(id, entry.at.getTime());
        each(entry.scope, (s) => s.revoke(entry.key));
      }
      for (const [id, at] of seen) if (at < started - 2 * LOOK_BACK_MS) seen.delete(id);
      lastGoodStart = started;
    } catch {
      // fresh() turns false after the bound: the caches stop answering until a read succeeds again
    }
  }

  async function loop(): Promise<void> {
    const started = Date.now();
    await poll();
    if (stopped) return;
    timer = setTimeout(loop, Math.max(0, pollMs - (Date.now() - started)));
    timer.unref();
  }

  connection.once('close', () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  });

  let following = false;
  return {
    async publish(scope, key) {
      await Revocation.collection.insertOne({ scope, key, at: new Date() } as RevocationDoc);
    },
    subscribe(scope, subscriber) {
      let set = subscribers.get(scope);
      if (!set) subscribers.set(scope, (set = new Set()));
      set.add(subscriber);
      if (!following) {
        following = true;
        void loop();
      }
    },
    fresh: () => Date.now() - lastGoodStart <= boundMs,
  };
}

const logs = new WeakMap<Connection, RevocationLog>();

/** The revocation log of the connection's database, one per connection (and so one poll per process). */
export function revocationLog(connection: Connection, options: RevocationLogOptions = {}): RevocationLog {
  let log = logs.get(connection);
  if (!log) {
    log = createRevocationLog(connection, options);
    logs.set(connection, log);
  }
  return log;
}
