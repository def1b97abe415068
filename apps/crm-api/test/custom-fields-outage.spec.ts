import { sendRaw, useFaultyServiceApp } from '@lib/testing';
import { createApp } from '../src/app';
import { customFieldModel } from '../src/custom-fields/custom-field.model';
import { crmData } from '../src/wiring';
import { person, TEST_CURSOR_SECRET } from './setup-app';

/** Custom field writes and the record checks that read the definitions, with the database stalled mid-request. */
const json = { 'Content-Type': 'application/json', Accept: 'application/json' };
let auth = '';
const faulty = useFaultyServiceApp((deps) => createApp({ ...deps, contactLimit: 1000, cursorSecret: TEST_CURSOR_SECRET }), {
  dbName: 'crm_fields_fault',
  seed: async (connection) => {
    const { apiKey } = await crmData(connection).accounts.addUser({ domain: 'acme', email: 'ann@acme.test', owner: true });
    auth = `Basic ${Buffer.from(`ann@acme.test:${apiKey}`).toString('base64')}`;
  },
});

const post = (url: string, body: object) => sendRaw(faulty.port, { method: 'post', url, headers: { ...json, Authorization: auth }, body: JSON.stringify(body) });
const seats = { field_label: 'Seats', field_type: 'NUMBER', is_required: true };

it('a stalled database: definition writes and checked contact writes answer 503 with Retry-After (no hang, no 500); retried after, no definition is doubled', async () => {
  expect((await post('/dev/api/custom-fields', { field_label: 'Plan', field_type: 'LIST', field_data: 'A;B' })).status).toBe(200);
  // the definitions as they are now are read, and kept by the process's cache
  expect((await post('/dev/api/contacts', { properties: [...person('Ed').properties, { type: 'CUSTOM', name: 'Plan', value: 'A' }] })).status).toBe(200);
  await faulty.database.stall();
  try {
    const answers = await Promise.all([post('/dev/api/custom-fields', seats), post('/dev/api/contacts', { properties: [...person('Al').properties, { type: 'CUSTOM', name: 'Plan', value: 'A' }] })]);
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toEqual(expect.any(String));
      expect(JSON.parse(res.text)).toEqual({ error: expect.objectContaining({ status: 503, code: 'database_unavailable' }) });
    }
  } finally {
    await faulty.database.resume();
  }
  // the stalled writes may land once the database answers again: whether the definition landed or
  // not, the checks follow what is stored (the failed write had the cache forget the definitions)
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const landed = (await customFieldModel(faulty.connection).countDocuments({ label_key: 'seats' })) === 1;
  expect((await post('/dev/api/contacts', person('Cy'))).status).toBe(landed ? 400 : 200);
  // a retry never makes a second definition
  const retried = await post('/dev/api/custom-fields', seats);
  expect([200, 400]).toContain(retried.status);
  expect(await customFieldModel(faulty.connection).countDocuments({ label_key: 'seats' })).toBe(1);
  // and the required field now applies to new contacts
  expect((await post('/dev/api/contacts', person('Bo'))).status).toBe(400);
  expect((await post('/dev/api/contacts', { properties: [...person('Bo').properties, { type: 'CUSTOM', name: 'Seats', value: '3' }] })).status).toBe(200);
}, 60_000);
