import { crossTenantSweep, securitySweep, withMore } from '@lib/testing';
import { company, person, setupCrmApp } from './setup-app';
import { crmSweepTarget } from './sweep-target';

const ctx = setupCrmApp();
const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

describe('crm-api security sweep, generated from the route table', () => {
  const target = crmSweepTarget(ctx, async (ann) => {
    const bob = await ctx.as(ann).post('/dev/api/contacts').send(person('Bob', 'bob@acme.test'));
    const flow = await ctx.as(ann).post('/dev/api/workflows').send({ name: 'Nurture', steps: [{ type: 'WAIT', duration: 1, unit: 'DAYS' }] });
    return { id: bob.body.id, email: 'bob@acme.test', workflow_id: flow.body.id, 'workflow-id': flow.body.id };
  });
  securitySweep(
    withMore(target, {
      isPublic: (route: { path: string }) => !route.path.startsWith('/dev/api'),
      get wrongCredentials() {
        const { ann } = target;
        return [
          { Authorization: basic(ann.email, `${ann.apiKey}x`) },
          { Authorization: basic('nobody@acme.test', ann.apiKey) },
          { Authorization: `Bearer ${ann.apiKey}` },
          { Authorization: 'Basic !!!not-base64' },
          { Authorization: basic(ann.email, '') },
        ];
      },
    }),
  );
});

describe('crm-api cross-account sweep, generated from the route table', () => {
  const MARKER = 'Zq7Marker';
  crossTenantSweep({
    get app() {
      return ctx.app;
    },
    async setup() {
      const owner = await ctx.user('acme', 'ann@acme.test');
      const intruder = await ctx.user('rival', 'rex@rival.test');
      const acme = await ctx.as(owner).post('/dev/api/contacts').send(company(`${MARKER} Acme`));
      const bob = await ctx.as(owner).post('/dev/api/contacts').send(person(`${MARKER}Bob`, 'bob@acme.test', { contact_company_id: acme.body.id, tags: ['Lead'] }));
      await ctx.as(owner).post('/dev/api/contacts').send(person(`${MARKER}Cy`, 'cy@acme.test'));
      const flow = await ctx.as(owner).post('/dev/api/workflows').send({ name: `${MARKER} nurture`, steps: [{ type: 'WAIT', duration: 1, unit: 'DAYS' }, { type: 'ADD_TAG', tag: 'Lead' }] });
      const enrolled = await ctx.as(owner).post('/dev/api/campaigns/enroll/email').type('form').send({ email: 'bob@acme.test', 'workflow-id': String(flow.body.id) });
      expect([flow.status, enrolled.status]).toEqual([200, 200]);
      const page = await ctx.as(owner).get('/dev/api/contacts?page_size=1');
      const cursor = page.body[0].cursor as string;
      // the intruder's own account has a contact with the same email: it must find that one, not the owner's
      await ctx.as(intruder).post('/dev/api/contacts').send(person('Rex', 'cy@acme.test'));
      // a document of Bob's and a help-desk ticket of the owner's, each showing the marker
      const doc = await ctx.as(owner).post('/dev/api/documents').send({ url: 'https://files.example/a.pdf', name: `${MARKER} doc`, contact_ids: [bob.body.id] });
      const group = (await ctx.as(owner).get('/dev/api/tickets/groups')).body[0].id;
      const ticket = await ctx.as(owner).post('/dev/api/tickets/new-ticket').send({
        requester_name: 'Bob', requester_email: 'bob@acme.test', subject: `${MARKER} help`, priority: 'LOW', status: 'NEW', groupID: group, html_text: `${MARKER} text`,
      });
      expect([acme.status, bob.status, page.status, typeof cursor, doc.status, ticket.status]).toEqual([200, 200, 200, 'string', 200, 200]);
      return {
        values: { id: bob.body.id, contact_id: bob.body.id, contactId: bob.body.id, ticketId: ticket.body.id, ticket_id: ticket.body.id, groupID: group, companyId: acme.body.id, email: 'bob@acme.test', owner_email: owner.email, cursor, q: MARKER, workflow_id: flow.body.id, 'workflow-id': flow.body.id },
        marker: MARKER,
        owner: { Authorization: owner.auth },
        intruder: { Authorization: intruder.auth },
      };
    },
    snapshotOwner: async () => {
      const account = (await ctx.Account.findOne({ domain: 'acme' }).lean())!._id;
      const contacts = await ctx.Contact.find({ account }).sort({ _id: 1 }).lean();
      const users = await ctx.connection.collection('domain_users').find({ account }).sort({ _id: 1 }).toArray();
      const others = await Promise.all(['documents', 'tickets', 'ticket_groups', 'ticket_notes', 'workflows', 'campaign_enrolments'].map((name) => ctx.connection.collection(name).find({ account }).sort({ _id: 1 }).toArray()));
      return JSON.stringify({ contacts, users: users.map(({ logged_in_time: _t, ...u }) => u), others });
    },
  });
});
