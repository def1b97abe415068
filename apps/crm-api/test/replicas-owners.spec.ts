import { REVOCATION_BOUND_MS } from '@lib/mongo';
import { useReplicas } from '@lib/testing';
import { crmData } from '../src/wiring';
import { person } from './setup-app';

// Three crm-api processes on one database, each keeping the owners it showed (credential-cache.ts):
// a change to a user made elsewhere (here: this test process, as `npm run crm:admin` would) shows
// in every replica's answers within the revocation bound.
const replicas = useReplicas({ entry: 'apps/crm-api/src/main.ts', replicas: 3 });

it("a change to a contact's owner shows on every replica within the revocation bound", async () => {
  const { accounts } = crmData(replicas.db.connection);
  const { apiKey } = await accounts.addUser({ domain: 'acme', email: 'ann@acme.test', owner: true });
  const bob = await accounts.addUser({ domain: 'acme', email: 'bob@acme.test' });
  const call = (i: number) => (method: 'get' | 'post', path: string) => replicas.replica(i)[method](path).auth('ann@acme.test', apiKey).set('Accept', 'application/json');
  const made = await call(0)('post', '/dev/api/contacts').send(person('Al', 'al@acme.test'));
  expect(made.status).toBe(200);
  expect((await call(0)('post', '/dev/api/contacts/change-owner').send({ owner_email: 'bob@acme.test', contact_id: made.body.id })).status).toBe(200);
  const owners = () => Promise.all([0, 1, 2].map(async (i) => (await call(i)('get', `/dev/api/contacts/${made.body.id}`).expect(200)).body.domainUser));
  const settle = () => new Promise((resolve) => setTimeout(resolve, REVOCATION_BOUND_MS + 500));

  // every replica has shown (and kept) Bob as he is
  for (const owner of await owners()) expect(owner).toMatchObject({ id: bob.user._id, email: 'bob@acme.test', is_admin: false, is_disabled: false });
  await accounts.setAdmin('bob@acme.test', true);
  await settle();
  for (const owner of await owners()) expect(owner).toMatchObject({ id: bob.user._id, is_admin: true, is_disabled: false });
  await accounts.setDisabled('bob@acme.test', true);
  await settle();
  for (const owner of await owners()) expect(owner).toMatchObject({ id: bob.user._id, is_admin: true, is_disabled: true });
}, 60_000);
