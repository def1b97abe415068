import { hostileInputSweep, snapshotDatabase } from '@lib/testing';
import { company, person, setupCrmApp, type TestUser } from './setup-app';

const ctx = setupCrmApp();
let ann: TestUser;
const samples: Record<string, string | number> = {};

describe('crm-api hostile input, generated from the route table', () => {
  hostileInputSweep({
    get app() {
      return ctx.app;
    },
    credentials: () => ({ Authorization: ann.auth }),
    snapshot: () => snapshotDatabase(ctx.connection),
    sample: (name) => samples[name],
    async seed() {
      ann = await ctx.user('acme', 'ann@acme.test');
      const acme = await ctx.as(ann).post('/dev/api/contacts').send(company('Acme'));
      const bob = await ctx.as(ann).post('/dev/api/contacts').send(person('Bob', 'bob@acme.test', { contact_company_id: acme.body.id }));
      expect([acme.status, bob.status]).toEqual([200, 200]);
      Object.assign(samples, { id: bob.body.id, contact_id: bob.body.id, companyId: acme.body.id, email: 'bob@acme.test', owner_email: ann.email });
    },
  });
});
