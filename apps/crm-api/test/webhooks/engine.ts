import { createLogger } from '@lib/http';
import { ensureIndexes } from '@lib/mongo';
import { useTestDatabase, type TestDatabase } from '@lib/testing';
import type { Connection } from 'mongoose';
import { deliveryModel, type DeliveryDoc } from '../../src/webhooks/webhook-delivery.model';
import type { DeliverySettings } from '../../src/webhooks/webhook-settings';
import { webhookModel, type WebhookDoc } from '../../src/webhooks/webhook.model';
import type { AccountStore } from '../../src/store/crm-store';
import type { CrmWebhooks } from '../../src/webhooks/webhooks';
import { crmData, newCrmWebhooks } from '../../src/wiring';
import { accountStore, recordModel, testSettings } from './engine-parts';

export * from './engine-parts';

export interface TestEngine {
  readonly db: TestDatabase;
  readonly connection: Connection;
  /** Webhooks built with the settings given (a new set per call: several "replicas" in one process). */
  build(settings?: DeliverySettings): CrmWebhooks;
  /** The delivery documents, oldest first. */
  deliveries(filter?: Record<string, unknown>): Promise<DeliveryDoc[]>;
  webhook(id: number): Promise<WebhookDoc | null>;
  /** The store of an account. */
  store(account: number): AccountStore;
}

/**
 * The test file's database with the webhook models, emptied before each test; workers built through
 * it are stopped after each. On an embedded server of its own: its transactions hold that server's
 * one write lock (libs/mongo write-serializer.ts), which must not slow other test files' writes.
 */
export function useWebhookEngine(options: { monitorCommands?: boolean } = {}): TestEngine {
  const db = useTestDatabase({ ...options, ownServer: true });
  const built: CrmWebhooks[] = [];
  beforeAll(async () => {
    recordModel(db.connection);
    crmData(db.connection); // registers the models
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
      const webhooks = newCrmWebhooks(db.connection, createLogger('test', (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent'), settings);
      built.push(webhooks);
      return webhooks;
    },
    deliveries: (filter = {}) => deliveryModel(db.connection).find(filter).sort({ _id: 1 }).lean<DeliveryDoc[]>(),
    webhook: (id) => webhookModel(db.connection).findById(id).lean<WebhookDoc>(),
    store: (account) => accountStore(db.connection, account),
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
