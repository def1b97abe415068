import request from 'supertest';
import { dealHelpers } from '../deal-helpers';
import { person, setupCrmApp, type TestUser } from '../setup-app';

/**
 * The original's REST documentation (github agilecrm/rest-api, README sections 9 "Documents API"
 * and 10 "Help Desks API"): none of the official clients (Java, PHP, Python, Node) has a document
 * or ticket call, so these are the documented curl calls, replayed as curl sends them: HTTP Basic,
 * `Accept: application/json`, `Content-Type: application/json` on the writes, the README's bodies as
 * written with its sample ids replaced by ids of records made here (a filter's id by the one
 * GET /dev/api/tickets/filters answers, as a caller of the original had to read it).
 */
const ctx = setupCrmApp();
const h = dealHelpers(ctx);

let ann: TestUser;
let contact: string;
let deal: string;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  contact = String((await ctx.as(ann).post('/dev/api/contacts').send(person('Make', 'make@hikson.test'))).body.id);
  deal = String((await h.createDeal(ann, await h.defaultTrack(ann))).id);
});

/** curl … -H "Accept: application/json" [-H "Content-Type: application/json" -d '…'] -u email:key -X METHOD */
function curl(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: string) {
  const agent = request(ctx.app);
  const req = { GET: agent.get(path), POST: agent.post(path), PUT: agent.put(path), DELETE: agent.delete(path) }[method].set('Authorization', ann.auth).set('Accept', 'application/json');
  return body === undefined ? req : req.set('Content-Type', 'application/json').send(body);
}

const URL_ = 'https://s3.amazonaws.com/agilecrm/panel/uploaded-logo/ghanshyam/1489549880850/chrome-window2.PNG?id=uploadDocumentForm';

describe('9 Documents API', () => {
  it('9.2 create, 9.3 update and 9.1 the contact\'s documents, with the README\'s bodies', async () => {
    const created = await curl('POST', '/dev/api/documents', `{
    "extension": "chrome-window2.PNG",
    "doc_type": "ATTACHMENT",
    "name": "Address proof",
    "url": "${URL_}",
    "size": "57907",
    "network_type": "S3",
    "contact_ids": [
        "${contact}"
    ],
    "deal_ids": [
        "${deal}"
    ]
}`);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Address proof', url: URL_, size: 57907, extension: 'chrome-window2.PNG', contact_ids: [contact], deal_ids: [deal], entity_type: 'document' });
    const updated = await curl('PUT', '/dev/api/documents', `{
    "id": "${created.body.id}",
    "extension": "chrome-window2.PNG",
    "doc_type": "ATTACHMENT",
    "name": "Address proof3",
    "url": "${URL_}",
    "contact_ids": [
        "${contact}"
    ],
    "deal_ids": [
        "${deal}"
    ]
}`);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, name: 'Address proof3', network_type: 'OTHER' });
    const listed = await curl('GET', `/dev/api/documents/contact/${contact}/docs`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([{ ...updated.body, count: 1 }]);
  });
});

describe('10 Help Desks API', () => {
  it('10.4 filters, 10.2 create, 10.1 a filter\'s tickets, 10.6 notes, 10.5 the messages, 10.3 delete', async () => {
    const filters = await curl('GET', '/dev/api/tickets/filters');
    expect(filters.status).toBe(200);
    expect(filters.body.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['All Tickets', 'New Tickets', 'My Tickets']));
    const all = filters.body.find((f: { name: string }) => f.name === 'All Tickets').id;
    const group = (await ctx.as(ann).get('/dev/api/tickets/groups')).body[0].id;
    const created = await curl('POST', '/dev/api/tickets/new-ticket', `{
    "requester_name": "yeki",
    "requester_email": "yeki@yopmail.com",
    "subject": "Test not working ??",
    "priority": "LOW",
    "status": "OPEN",
    "groupID": "${group}",
    "html_text": "Hello I am testing your docs and find that Test is not working. Please help me",
    "cc_emails": [
        "tester@gmail.com"
    ],
    "labels": null
}`);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ requester_email: 'yeki@yopmail.com', status: 'OPEN', priority: 'LOW', groupID: group, cc_emails: ['tester@gmail.com'], labels: [] });
    const id = created.body.id;
    const page = await curl('GET', `/dev/api/tickets/filter?filter_id=${all}&page_size=25&global_sort_key=-last_updated_time`);
    expect(page.status).toBe(200);
    expect(page.body).toEqual([{ ...created.body, count: 1 }]);
    for (const type of ['PUBLIC', 'PRIVATE']) {
      const noted = await curl('POST', `/dev/api/notes/${id}`, `{
    \t"ticket_id":"${id}",
\t"html_text":"Note description",
\t"note_type":"${type}"
}`);
      expect(noted.status).toBe(200);
      expect(noted.body.id).toBe(id);
    }
    const notes = await curl('GET', `/dev/api/tickets/notes/${id}`);
    expect(notes.status).toBe(200);
    expect(notes.body.map((n: { note_type: string; created_by: string }) => `${n.created_by} ${n.note_type}`)).toEqual(['REQUESTER PUBLIC', 'AGENT PUBLIC', 'AGENT PRIVATE']);
    const deleted = await curl('DELETE', `/dev/api/tickets/${id}`);
    expect([deleted.status, deleted.body]).toEqual([200, { status: 'success' }]);
  });
});
