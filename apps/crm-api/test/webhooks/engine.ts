import { createLogger } from '@lib/http';
import { ensureIndexes } from '@lib/mongo';
import { allowedHosts, outboundPolicy, type OutboundPolicyOptions } from '@lib/outbound';
import { useTestDatabase, type TestDatabase } from '@lib/testing';
import { Schema, type Connection, type Model } from 'mongoose';
import { deliveryModel, type DeliveryDoc } from '../../src/webhooks/webhook-delivery.model';
import type { EventRecorder } from '../../src/webhooks/event-recorder';
import type { EventName, WebhookAction, WebhookObject } from '../../src/webhooks/webhook-events';
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from '../../src/webhooks/webhook-settings';
import { webhookModel, type WebhookDoc } from '../../src/webhooks/webhook.model';
import { createWebhooks, type CrmWebhooks } from '../../src/webhooks/webhooks';

/** WEBHOOK_ALLOWED_HOSTS empty: only public https receivers. */
export const NOTHING_ALLOWED = allowedHosts('', 'WEBHOOK_ALLOWED_HOSTS');

/**
 * Settings for tests: the schedule in milliseconds, a short poll and lease, and the loopback
 * receiver allowed (WEBHOOK_ALLOWED_HOSTS=127.0.0.1), as `policy` options may change.
 */
export function testSettings(overrides: Partial<DeliverySettings> = {}, policy: Partial<OutboundPolicyOptions> = {}): DeliverySettings {
  return {
    ...DEFAULT_DELIVERY_SETTINGS,
    policy: outboundPolicy({ name: 'webhooks', allowed: allowedHosts('127.0.0.1', 'WEBHOOK_ALLOWED_HOSTS'), ...policy }),
    pollMs: 50,
    leaseMs: 3_000,
    timeoutMs: 3_000,
    retry: { delaysMs: [100, 200, 300], jitter: 0, retryAfterMinMs: 10, retryAfterMaxMs: 5_000 },
    ...overrides,
  };
}

/** A record standing for any crm record a write path changes (its name is what changes). */
export interface TestRecord {
  _id: number;
  account: number;
  name: string;
  rev: number;
}

const recordSchema = new Schema<TestRecord>({ _id: Number, account: Number, name: String, rev: Number }, { versionKey: false });
export const recordModel = (connection: Connection): Model<TestRecord> => connection.models.TestRecord ?? connection.model<TestRecord>('TestRecord', recordSchema, 'test_records');

/** Writes as the crm write paths will (phase 2): the change and its event in `withEvents`. */
export function testWrites(connection: Connection, recorder: EventRecorder, object: WebhookObject = 'contact') {
  const Records = recordModel(connection);
  const name = (action: WebhookAction) => `${object}.${action}` as EventName;
  const view = (doc: TestRecord) => ({ id: doc._id, name: doc.name, rev: doc.rev });
  return {
    create: (account: number, id: number, value: string) =>
      recorder.withEvents(account, [name('created')], async (tx) => {
        const doc = { _id: id, account, name: value, rev: 0 };
        await Records.create([doc], { session: tx.session });
        await tx.record({ object, action: 'created', id, data: () => view(doc) });
        return doc;
      }),
    update: (account: number, id: number, value: string, fail?: 'after-write') =>
      recorder.withEvents(account, [name('updated')], async (tx) => {
        const doc = await Records.findOneAndUpdate({ _id: id, account }, { $set: { name: value }, $inc: { rev: 1 } }, { returnDocument: 'after', session: tx.session }).lean<TestRecord>();
        if (!doc) throw new Error(`no record ${id}`);
        await tx.record({ object, action: 'updated', id, data: () => view(doc) });
        if (fail) throw new Error('the write failed after its change');
        return doc;
      }),
    remove: (account: number, id: number) =>
      recorder.withEvents(account, [name('deleted')], async (tx) => {
        const doc = await Records.findOne({ _id: id, account }, null, { session: tx.session }).lean<TestRecord>();
        if (!doc || (await Records.deleteOne({ _id: id, account }, { session: tx.session })).deletedCount !== 1) throw new Error(`no record ${id}`);
        await tx.record({ object, action: 'deleted', id, data: () => view(doc) });
        return doc;
      }),
  };
}

export interface TestEngine {
  readonly db: TestDatabase;
  readonly connection: Connection;
  /** Webhooks built with the settings given (a new set per call: several "replicas" in one process). */
  build(settings?: DeliverySettings): CrmWebhooks;
  /** The delivery documents, oldest first. */
  deliveries(filter?: Record<string, unknown>): Promise<DeliveryDoc[]>;
  webhook(id: number): Promise<WebhookDoc | null>;
}

/** The test file's database with the webhook models, emptied before each test; workers built through it are stopped after each. */
export function useWebhookEngine(options: { monitorCommands?: boolean } = {}): TestEngine {
  const db = useTestDatabase(options);
  const built: CrmWebhooks[] = [];
  beforeAll(async () => {
    recordModel(db.connection);
    createWebhooks(db.connection, createLogger('test', 'silent'), testSettings()); // registers the models
    await ensureIndexes(db.connection);
  });
  beforeEach(() => db.clear());
  afterEach(async () => {
    await Promise.all(built.splice(0).map((webhooks) => webhooks.worker.stop()));
  });
  return {
    db,
    get connection() {
      return db.connection;
    },
    build(settings = testSettings()) {
      const webhooks = createWebhooks(db.connection, createLogger('test', (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent'), settings);
      built.push(webhooks);
      return webhooks;
    },
    deliveries: (filter = {}) => deliveryModel(db.connection).find(filter).sort({ _id: 1 }).lean<DeliveryDoc[]>(),
    webhook: (id) => webhookModel(db.connection).findById(id).lean<WebhookDoc>(),
  };
}

/** Waits until `check` holds (polled every 50 ms), within `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
