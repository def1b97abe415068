import { hostileInputSweep } from '@lib/testing';
import { company, person, setupCrmApp } from './setup-app';
import { crmSweepTarget } from './sweep-target';

const ctx = setupCrmApp();

describe('crm-api hostile input, generated from the route table', () => {
  hostileInputSweep(
    crmSweepTarget(ctx, async (ann) => {
      const acme = await ctx.as(ann).post('/dev/api/contacts').send(company('Acme'));
      const bob = await ctx.as(ann).post('/dev/api/contacts').send(person('Bob', 'bob@acme.test', { contact_company_id: acme.body.id }));
      const flow = await ctx.as(ann).post('/dev/api/workflows').send({ name: 'Nurture', steps: [{ type: 'WAIT', duration: 1, unit: 'DAYS' }, { type: 'ADD_TAG', tag: 'Lead' }] });
      expect([acme.status, bob.status, flow.status]).toEqual([200, 200, 200]);
      return { id: bob.body.id, contact_id: bob.body.id, companyId: acme.body.id, email: 'bob@acme.test', owner_email: ann.email, workflow_id: flow.body.id, 'workflow-id': flow.body.id };
    }),
    // every route, each request compared with a snapshot of the whole database: 64-75 s alone, and
    // up to 323 s late in a whole npm test while every file ran in one jest process (now each in its
    // own: jest.preset.js); the timeout only guards against a hang
    { timeoutMs: 600_000 },
  );
});
