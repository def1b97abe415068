import { person, setupCrmApp } from './setup-app';

const ctx = setupCrmApp();

describe('crm-api smoke', () => {
  it('creates and reads back a contact as its owner', async () => {
    const ann = await ctx.user('acme', 'ann@acme.test');
    const created = await ctx.as(ann).post('/dev/api/contacts').send(person('Ann', 'a@x.test'));
    expect(created.status).toBe(200);
    const read = await ctx.as(ann).get(`/dev/api/contacts/${created.body.id}`);
    expect(read.body).toMatchObject({ id: created.body.id, type: 'PERSON', domainUser: { email: 'ann@acme.test', password: '**********' } });
  });
});
