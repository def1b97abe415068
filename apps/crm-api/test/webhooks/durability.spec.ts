import { spawn } from 'node:child_process';
import { createLogger } from '@lib/http';
import { connectMongo, ensureIndexes } from '@lib/mongo';
import { bundleEntry, startFaultyDatabase, useTestDatabase, type FaultyDatabase } from '@lib/testing';
import type { Connection } from 'mongoose';
import { deliveryModel, type DeliveryDoc } from '../../src/webhooks/webhook-delivery.model';
import { newCrmWebhooks } from '../../src/wiring';
import { accountStore, eventually, recordModel, testSettings, testWrites } from './engine';
import { startReceiver, type Receiver } from './receiver';

const ACCOUNT = 51;
const RECORDS = 4;

/**
 * The invariant of recording events in the transaction of their change: for every record, the
 * `contact.updated` deliveries carry exactly the revisions 1…rev it has stored (each committed
 * update once, nothing else), so no change lacks its event and no event lacks its change.
 */
async function expectEventsMatchChanges(connection: Connection, acknowledged: Map<number, number>): Promise<void> {
  const records = await recordModel(connection).find({ account: ACCOUNT }).sort({ _id: 1 }).lean();
  const deliveries = await deliveryModel(connection).find({ account: ACCOUNT, event: 'contact.updated' }).lean<DeliveryDoc[]>();
  expect(records).toHaveLength(RECORDS);
  for (const record of records) {
    const revs = deliveries.map((d) => JSON.parse(d.body).eventData as { id: number; rev: number }).filter((data) => data.id === record._id).map((data) => data.rev);
    expect(revs.sort((a, b) => a - b)).toEqual(Array.from({ length: record.rev }, (_, i) => i + 1));
    // every acknowledged write is among them
    expect(record.rev).toBeGreaterThanOrEqual(acknowledged.get(record._id) ?? 0);
  }
}

async function seed(connection: Connection, url: string): Promise<void> {
  const webhooks = newCrmWebhooks(connection, createLogger('test', 'silent'), testSettings());
  recordModel(connection);
  await ensureIndexes(connection);
  await webhooks.service.create(accountStore(connection, ACCOUNT), { url, events: ['contact.updated'] });
  await recordModel(connection).insertMany(Array.from({ length: RECORDS }, (_, i) => ({ _id: i + 1, account: ACCOUNT, name: 'new', rev: 0 })));
}

describe('a writer killed mid-write: the change and its event are stored together or not at all', () => {
  const db = useTestDatabase({ ownServer: true }); // its transactions must not hold the shared server's write lock

  it('after SIGKILL at a random moment, every stored change has its event and every event its change', async () => {
    await seed(db.connection, 'https://hooks.example.com/in');
    const script = await bundleEntry('apps/crm-api/test/webhooks/fixtures/event-writer.ts');
    const url = new URL(db.serverUrl);
    url.pathname = `/${db.dbName}`;
    const child = spawn(process.execPath, [script], { env: { PATH: process.env.PATH, MONGO_URL: url.toString(), ACCOUNT: String(ACCOUNT), RECORDS: String(RECORDS) }, stdio: ['ignore', 'pipe', 'pipe'] });
    const acknowledged = new Map<number, number>();
    let acks = 0;
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    const killAfter = 20 + Math.floor(Math.random() * 30);
    child.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        const match = /^ack (\d+) (\d+)$/.exec(line);
        if (!match) continue;
        acknowledged.set(Number(match[1]), Math.max(acknowledged.get(Number(match[1])) ?? 0, Number(match[2])));
        // killed while its next write is under way: a transaction open, or committing
        if (++acks === killAfter) setTimeout(() => child.kill('SIGKILL'), Math.random() * 5);
      }
    });
    expect(await exited).toBe('SIGKILL');
    expect(errors).toBe('');
    expect(acks).toBeGreaterThanOrEqual(killAfter);
    await expectEventsMatchChanges(db.connection, acknowledged);
  }, 60_000);
});

describe('the database stalled during writes', () => {
  let database: FaultyDatabase;
  let connection: Connection;
  let receiver: Receiver;
  beforeAll(async () => {
    database = await startFaultyDatabase();
    // the production time limits: a stalled database fails a write within seconds
    connection = await connectMongo({ url: database.url, dbName: 'stalled' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await connection?.close();
    await database?.close();
    await receiver?.close();
  });

  it('stores no event for a write that failed unstored and loses none of those acknowledged; all are delivered once it answers again', async () => {
    await seed(connection, receiver.url());
    const webhooks = newCrmWebhooks(connection, createLogger('test', 'silent'), testSettings({ retry: { delaysMs: [200, 400, 800, 1_600, 3_200], jitter: 0, retryAfterMinMs: 10, retryAfterMaxMs: 100 } }));
    webhooks.worker.start();
    const writes = testWrites(connection, webhooks.recorder);
    const acknowledged = new Map<number, number>();
    let failed = 0;
    let phase: 'before' | 'stalled' | 'after' = 'before';
    let afterAcks = 0;
    const writer = async (id: number) => {
      for (let i = 0; phase !== 'after' || afterAcks < 12; i++) {
        try {
          const doc = await writes.update(ACCOUNT, id, `w${i}`);
          acknowledged.set(id, Math.max(acknowledged.get(id) ?? 0, doc.rev));
          if (phase === 'after') afterAcks++;
        } catch {
          failed++;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };
    const writers = Promise.all(Array.from({ length: RECORDS }, (_, i) => writer(i + 1)));
    await eventually(async () => [...acknowledged.values()].reduce((a, b) => a + b, 0) >= 12, 15_000, 'writes before the stall');
    await database.stall();
    phase = 'stalled';
    await eventually(async () => failed >= RECORDS, 20_000, 'writes failing while stalled');
    await database.resume();
    phase = 'after';
    await writers;
    expect(failed).toBeGreaterThanOrEqual(RECORDS);
    await expectEventsMatchChanges(connection, acknowledged);
    // none lost: every recorded event reaches the receiver
    const deliveries = await deliveryModel(connection).find({ account: ACCOUNT }).lean<DeliveryDoc[]>();
    await eventually(async () => {
      const got = new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));
      return deliveries.every((d) => got.has(d.event_id));
    }, 30_000, 'every event delivered');
    await webhooks.worker.stop();
  }, 90_000);
});
