import { REVOCATION_BOUND_MS } from '@lib/mongo';
import { useReplicas } from '@lib/testing';
import { categoryModel } from '../src/categories/category.model';
import { customFieldModel } from '../src/custom-fields/custom-field.model';
import { crmData } from '../src/wiring';
import { person } from './setup-app';

// Three crm-api processes on one database: what decides a custom field's or a category's uniqueness lives in the database.
const replicas = useReplicas({ entry: 'apps/crm-api/src/main.ts', replicas: 3 });

it('creates of one label over three replicas store one definition; first reads of deal sources on every replica make the defaults once', async () => {
  const { user, apiKey } = await crmData(replicas.db.connection).accounts.addUser({ domain: 'acme', email: 'ann@acme.test' });
  const as = (i: number) => (method: 'get' | 'post', path: string) => replicas.replica(i % 3)[method](path).auth('ann@acme.test', apiKey).set('Accept', 'application/json');

  const creates = await Promise.all(Array.from({ length: 9 }, (_, i) => as(i)('post', '/dev/api/custom-fields').send({ field_label: i % 2 ? 'Budget' : 'budget ', field_type: 'NUMBER' })));
  expect(creates.filter((res) => res.status === 200)).toHaveLength(1);
  for (const res of creates.filter((r) => r.status !== 200)) expect([res.status, res.body.error.message]).toEqual([400, 'Sorry, a custom field with that name is already present.']);
  expect(await customFieldModel(replicas.db.connection).countDocuments({ account: user.account })).toBe(1);

  const reads = await Promise.all(Array.from({ length: 6 }, (_, i) => as(i)('get', '/dev/api/categories?entity_type=DEAL_SOURCE')));
  for (const res of reads) expect(res.body.map((s: { label: string }) => s.label)).toEqual(['Website', 'Referral', 'Ads']);
  expect(new Set(reads.map((res) => JSON.stringify(res.body))).size).toBe(1);
  expect(await categoryModel(replicas.db.connection).countDocuments({ account: user.account, entity_type: 'DEAL_SOURCE' })).toBe(4);
}, 60_000);

it('a definition made, changed or removed on one replica checks the contacts written on every replica within the revocation bound', async () => {
  const { apiKey } = await crmData(replicas.db.connection).accounts.addUser({ domain: 'beta', email: 'bea@beta.test' });
  const call = (i: number, method: 'post' | 'put' | 'delete', path: string, body?: object) =>
    replicas.replica(i)[method](path).auth('bea@beta.test', apiKey).set('Accept', 'application/json').send(body);
  const contact = (i: number, seats?: string) =>
    call(i, 'post', '/dev/api/contacts', { properties: [...person(`P${i}`).properties, ...(seats === undefined ? [] : [{ type: 'CUSTOM', name: 'Seats', value: seats }])] });
  const statuses = async (seats?: string) => Promise.all([0, 1, 2].map(async (i) => (await contact(i, seats)).status));
  const settle = () => new Promise((resolve) => setTimeout(resolve, REVOCATION_BOUND_MS + 500));

  // every replica has read (and cached) the account's definitions: none
  expect(await statuses()).toEqual([200, 200, 200]);
  const made = await call(0, 'post', '/dev/api/custom-fields', { field_label: 'Seats', field_type: 'NUMBER', is_required: true });
  expect(made.status).toBe(200);
  expect((await contact(0)).status).toBe(400); // at once where it was made
  await settle();
  expect(await statuses()).toEqual([400, 400, 400]);
  expect(await statuses('many')).toEqual([400, 400, 400]);
  expect(await statuses('3')).toEqual([200, 200, 200]);

  // changed on another replica: no longer required
  expect((await call(1, 'put', '/dev/api/custom-fields', { id: made.body.id, field_label: 'Seats', field_type: 'NUMBER', is_required: false })).status).toBe(200);
  await settle();
  expect(await statuses()).toEqual([200, 200, 200]);
  expect(await statuses('many')).toEqual([400, 400, 400]);

  // removed on a third: any value is stored as sent
  expect((await call(2, 'delete', `/dev/api/custom-fields/${made.body.id}`)).status).toBe(204);
  await settle();
  expect(await statuses('many')).toEqual([200, 200, 200]);
}, 60_000);
