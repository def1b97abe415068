import { useReplicas } from '@lib/testing';
import { categoryModel } from '../src/categories/category.model';
import { customFieldModel } from '../src/custom-fields/custom-field.model';
import { crmData } from '../src/wiring';

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
