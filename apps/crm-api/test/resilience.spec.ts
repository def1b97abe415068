import { expectLoadServed, expectNoneMissing, itServesThroughDatabaseFaults, itStartsOnceDatabaseAnswers, sendRaw, type OutageTiming, useFaultyServiceApp } from '@lib/testing';
import { crmData } from '../src/wiring';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { crmService } from '../src/service';
import { contactModel } from '../src/contacts/contact.model';
import { acknowledgements, ackedThroughOutage, json, mixedTraffic, unavailableBody } from './load-traffic';
import { person, setupCrmApp, TEST_CURSOR_SECRET } from './setup-app';

const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

describe('crm-api under load', () => {
  const ctx = setupCrmApp({ contactLimit: 100_000 });

  it('200 concurrent connections of mixed reads and writes: zero 5xx, no acknowledged write lost or duplicated', async () => {
    const ann = await ctx.user('acme', 'ann@acme.test');
    const shared = await ctx.as(ann).post('/dev/api/contacts').send(person('Shared', 'shared@acme.test'));
    const acked = acknowledgements();
    await expectLoadServed(ctx.app, {
      connections: 200,
      durationMs: 1_500,
      next: mixedTraffic(ann.auth, shared.body.id, 'L'),
      onResponse: (req, res) => acked.record(req, res.status),
      statuses: ['200'],
    });
    const created = await ctx.Contact.find({ emails: /@load\.test$/ }).lean();
    expect(created.map((c) => c.emails[0]).sort()).toEqual(acked.emails.sort()); // none missing, none twice
    expect(acked.emails.length).toBeGreaterThan(20);
    const sharedNow = await ctx.Contact.findById(shared.body.id).lean();
    expect(Object.keys(sharedNow!.tag_times).sort()).toEqual([...new Set(acked.tags)].sort());
    const account = await ctx.Account.findById(ann.account).lean();
    expect(account!.contact_count).toBe(created.length + 1);
  }, 30_000);
});

describe('crm-api when the database stops during load', () => {
  let auth: string;
  let sharedId: number;
  const faulty = useFaultyServiceApp((deps) => createApp({ ...deps, contactLimit: 100_000, cursorSecret: TEST_CURSOR_SECRET }), { dbName: 'crm_fault',
    seed: async (connection) => {
      const { apiKey } = await crmData(connection).accounts.addUser({ domain: 'acme', email: 'ann@acme.test', owner: true });
      auth = basic('ann@acme.test', apiKey);
    },
  });
  beforeAll(async () => {
    const shared = await sendRaw(faulty.port, { method: 'post', url: '/dev/api/contacts', headers: { ...json, Authorization: auth }, body: JSON.stringify(person('Shared')) });
    sharedId = JSON.parse(shared.text).id;
  });

  /** Load through the database's outage; what both tests check. */
  async function throughOutage(prefix: string, timing: OutageTiming) {
    const acked = await ackedThroughOutage(faulty, timing, auth, sharedId, prefix);

    const after = await sendRaw(faulty.port, { method: 'get', url: `/dev/api/contacts/${sharedId}`, headers: { ...json, Authorization: auth } });
    expect(after.status).toBe(200);
    const Contact = contactModel(faulty.connection);
    expectNoneMissing(acked.emails, (await Contact.find({ emails: /@load\.test$/ }).lean()).map((c) => c.emails[0]));
    expectNoneMissing(acked.tags, Object.keys((await Contact.findById(sharedId).lean())!.tag_times));
    expect(acked.emails.length).toBeGreaterThan(0);
  }

  itServesThroughDatabaseFaults(throughOutage);
});

describe('crm-api started while its database is unreachable', () => {
  itStartsOnceDatabaseAnswers({
    service: (url) => crmService(loadConfig({ MONGO_URL: url })),
    // the bootstrap owner (development defaults) exists only once the start-up steps ran: 204 (no
    // contacts yet) shows it signed in
    request: { method: 'get', url: '/dev/api/contacts', headers: { ...json, Authorization: basic('admin@example.com', 'dev-api-key') } },
    startedStatus: 204,
    unavailableBody,
  });
});
