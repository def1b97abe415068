import { allowedHosts, outboundPolicy, type OutboundPolicyOptions } from '@lib/outbound';
import { Schema, type Connection, type Model } from 'mongoose';
import type { AccountId } from '../../src/store/account-id';
import type { AccountStore } from '../../src/store/crm-store';
import type { EventRecorder } from '../../src/webhooks/event-recorder';
import { crmData } from '../../src/wiring';
import type { EventName, WebhookAction, WebhookObject } from '../../src/webhooks/webhook-events';
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from '../../src/webhooks/webhook-settings';

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

/** The store of an account (a test names accounts by number; the app gets them from the signed-in user). */
export const accountStore = (connection: Connection, account: number): AccountStore => crmData(connection).store.of(account as AccountId);

/** Writes as the crm write paths make them (contacts/contact-events.ts, webhooks/record-events.ts): the change and its event in `withEvents`. */
export function testWrites(connection: Connection, recorder: EventRecorder, object: WebhookObject = 'contact') {
  const Records = recordModel(connection);
  const name = (action: WebhookAction) => `${object}.${action}` as EventName;
  const view = (doc: TestRecord) => ({ id: doc._id, name: doc.name, rev: doc.rev });
  return {
    create: (account: number, id: number, value: string) =>
      recorder.withEvents(accountStore(connection, account), [name('created')], async (tx) => {
        const doc = { _id: id, account, name: value, rev: 0 };
        await Records.create([doc]);
        await tx.record({ object, action: 'created', id, data: () => view(doc) });
        return doc;
      }),
    update: (account: number, id: number, value: string, fail?: 'after-write') =>
      recorder.withEvents(accountStore(connection, account), [name('updated')], async (tx) => {
        const doc = await Records.findOneAndUpdate({ _id: id, account }, { $set: { name: value }, $inc: { rev: 1 } }, { returnDocument: 'after' }).lean<TestRecord>();
        if (!doc) throw new Error(`no record ${id}`);
        await tx.record({ object, action: 'updated', id, data: () => view(doc) });
        if (fail) throw new Error('the write failed after its change');
        return doc;
      }),
    remove: (account: number, id: number) =>
      recorder.withEvents(accountStore(connection, account), [name('deleted')], async (tx) => {
        const doc = await Records.findOne({ _id: id, account }).lean<TestRecord>();
        if (!doc || (await Records.deleteOne({ _id: id, account })).deletedCount !== 1) throw new Error(`no record ${id}`);
        await tx.record({ object, action: 'deleted', id, data: () => view(doc) });
        return doc;
      }),
  };
}

