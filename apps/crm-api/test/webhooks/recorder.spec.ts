import { logCommands } from '@lib/testing';
import { recordModel, eventually, testWrites, useWebhookEngine } from './engine';

const ACCOUNT = 11;
const OTHER_ACCOUNT = 12;

describe('recording events with the change they describe', () => {
  const engine = useWebhookEngine({ monitorCommands: true });

  it('stores the change and its deliveries together, and neither when the write fails after its change', async () => {
    const webhooks = engine.build();
    await webhooks.service.create(engine.store(ACCOUNT), { url: 'https://hooks.example.com/a', events: ['contact.*'] });
    const writes = testWrites(engine.connection, webhooks.recorder);
    await writes.create(ACCOUNT, 1, 'first');
    await expect(writes.update(ACCOUNT, 1, 'second', 'after-write')).rejects.toThrow('the write failed after its change');
    expect(await recordModel(engine.connection).findById(1).lean()).toMatchObject({ name: 'first', rev: 0 });
    const deliveries = await engine.deliveries();
    expect(deliveries.map((d) => [d.event, JSON.parse(d.body)])).toEqual([['contact.created', { eventName: 'Contact is Created', eventData: { id: 1, name: 'first', rev: 0 } }]]);
    await writes.update(ACCOUNT, 1, 'third');
    expect((await engine.deliveries()).map((d) => [d.event, d.seq])).toEqual([
      ['contact.created', 1],
      ['contact.updated', 2],
    ]);
  });

  it('gives a write of an account without a listening webhook no transaction and no command of its own, and never reads its data', async () => {
    const webhooks = engine.build();
    await webhooks.service.create(engine.store(ACCOUNT), { url: 'https://hooks.example.com/a', events: ['deal.*'] });
    const Records = recordModel(engine.connection);
    let read = 0;
    const write = (account: number, id: number) =>
      webhooks.recorder.withEvents(engine.store(account), ['contact.created'], async (tx) => {
        await Records.create([{ _id: id, account, name: 'x', rev: 0 }]);
        await tx.record({ object: 'contact', action: 'created', id, data: () => ++read });
      });
    let id = 0;
    const twoWrites = async () => {
      const log = logCommands(engine.connection);
      try {
        await write(ACCOUNT, ++id);
        await write(OTHER_ACCOUNT, ++id);
      } finally {
        log.stop();
      }
      return log.commands.map((c) => `${c.name} ${c.collection}`);
    };
    // the first writes load each account's subscriptions, and again once the create's revocation,
    // published to every process, has come back to this one (within 1 s); then a write sends its own commands only
    let commands = await twoWrites();
    for (let i = 0; i < 40 && commands.includes('find webhooks'); i++) commands = await twoWrites();
    expect(commands).toEqual(['insert test_records', 'insert test_records']);
    expect(read).toBe(0);
    expect(await engine.deliveries()).toEqual([]);
  });

  it('refuses an event the write did not name when a webhook listens to it (it would be lost)', async () => {
    const webhooks = engine.build();
    await webhooks.service.create(engine.store(ACCOUNT), { url: 'https://hooks.example.com/a', events: ['contact.deleted'] });
    const attempt = webhooks.recorder.withEvents(engine.store(ACCOUNT), ['contact.created'], (tx) => tx.record({ object: 'contact', action: 'deleted', id: 1, data: {} }));
    await expect(attempt).rejects.toThrow('withEvents: contact.deleted recorded but not named');
  });

  it('records for a webhook created by another process once the revocation log has reached this one', async () => {
    const here = engine.build();
    const elsewhere = engine.build(); // its own subscription cache, as on another replica
    const writes = testWrites(engine.connection, here.recorder);
    await writes.create(ACCOUNT, 1, 'before'); // caches "no webhook" for the account
    await elsewhere.service.create(engine.store(ACCOUNT), { url: 'https://hooks.example.com/a', events: ['contact.updated'] });
    let n = 0;
    await eventually(async () => {
      await writes.update(ACCOUNT, 1, `after ${++n}`);
      return (await engine.deliveries()).length > 0;
    }, 5_000, 'a delivery for the new webhook');
    const [first] = await engine.deliveries();
    expect(first.event).toBe('contact.updated');
    // and from then on every write
    await writes.update(ACCOUNT, 1, 'last');
    expect(await engine.deliveries()).toHaveLength(2);
  });

  it('stops recording for a deleted webhook in every process, and cancels its pending deliveries', async () => {
    const here = engine.build();
    const elsewhere = engine.build();
    const { webhook } = await elsewhere.service.create(engine.store(ACCOUNT), { url: 'https://hooks.example.com/a', events: ['*'] });
    const writes = testWrites(engine.connection, here.recorder);
    await writes.create(ACCOUNT, 1, 'a');
    expect(await engine.deliveries()).toHaveLength(1);
    await elsewhere.service.remove(engine.store(ACCOUNT), webhook._id);
    expect((await engine.deliveries())[0]).toMatchObject({ state: 'cancelled', reason: 'webhook deleted' });
    let n = 0;
    await eventually(async () => {
      const before = (await engine.deliveries()).length;
      await writes.update(ACCOUNT, 1, `b${++n}`);
      return (await engine.deliveries()).length === before;
    }, 5_000, 'no delivery recorded');
  });
});
