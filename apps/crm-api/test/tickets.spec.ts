import { MongoNetworkError } from 'mongodb';
import { contactModel } from '../src/contacts/contact.model';
import { ticketGroupModel, ticketModel, ticketNoteModel } from '../src/tickets/ticket.model';
import { TICKET_NOTE_WORST_BYTES, TICKET_WORST_BYTES } from '../src/tickets/ticket.paging';
import { crmData } from '../src/wiring';
import { expectError, storedState } from './expectations';
import { person, setupCrmApp, type TestUser } from './setup-app';

/** The help desk (the original's REST docs, 10): groups, tickets, the built-in filters and notes. */
const ctx = setupCrmApp();
const T = '/dev/api/tickets';

let ann: TestUser;
let bob: TestUser;
let zed: TestUser;
let support: number;
beforeEach(async () => {
  await Promise.all([ticketModel(ctx.connection).deleteMany({}), ticketGroupModel(ctx.connection).deleteMany({}), ticketNoteModel(ctx.connection).deleteMany({})]);
  ({ ann, colleague: bob, zed } = await ctx.threeUsers());
  support = (await ctx.as(ann).get(`${T}/groups`)).body[0].id;
});

const sample = () => ({
  requester_name: 'yeki tester',
  requester_email: 'yeki@yopmail.com',
  subject: 'Test not working ??',
  priority: 'LOW',
  status: 'OPEN',
  groupID: String(support),
  html_text: 'Hello I am testing your docs and find that Test is not working. Please help me',
  cc_emails: ['tester@gmail.com'],
  labels: null,
});

async function open(user: TestUser, extra: object = {}) {
  const res = await ctx.as(user).post(`${T}/new-ticket`).send({ ...sample(), ...extra });
  expect(res.status).toBe(200);
  return res.body as { id: number } & Record<string, unknown>;
}

describe('GET /dev/api/tickets/groups', () => {
  it('every account starts with one Support group, made once (also by reads at once)', async () => {
    const reads = await Promise.all(Array.from({ length: 4 }, () => ctx.as(bob).get(`${T}/groups`)));
    for (const res of reads) expect(res.body).toEqual([{ id: support, group_name: 'Support', created_time: expect.any(Number) }]);
    const other = await ctx.as(zed).get(`${T}/groups`).set('Accept', 'application/xml');
    expect(other.text).toMatch(/^<\?xml[^>]*\?><groups><group><id>\d+<\/id><group_name>Support<\/group_name>/);
    expect(other.text).not.toContain(`<id>${support}</id>`);
    expect(await ticketGroupModel(ctx.connection).countDocuments()).toBe(2);
  });
});

describe('POST /dev/api/tickets/new-ticket', () => {
  it('creates the ticket as the original documents it, with a new contact for the requester and the first message as a note', async () => {
    const res = await ctx.as(ann).post(`${T}/new-ticket`).send(sample());
    expect(res.status).toBe(200);
    const contact = await contactModel(ctx.connection).findOne({ emails: 'yeki@yopmail.com' }).lean();
    expect(contact).toMatchObject({ account: ann.account, owner: ann.id, type: 'PERSON' });
    expect(contact?.properties).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'first_name', value: 'yeki' }), expect.objectContaining({ name: 'last_name', value: 'tester' })]),
    );
    const text = 'Hello I am testing your docs and find that Test is not working. Please help me';
    expect(res.body).toEqual({
      id: expect.any(Number),
      groupID: support,
      assigned_to_group: true,
      requester_name: 'yeki tester',
      requester_email: 'yeki@yopmail.com',
      contactID: contact?._id,
      subject: 'Test not working ??',
      cc_emails: ['tester@gmail.com'],
      created_time: expect.any(Number),
      last_updated_time: res.body.created_time,
      last_updated_by: 'REQUESTER',
      first_notes_text: text,
      last_reply_text: text,
      status: 'OPEN',
      priority: 'LOW',
      source: 'API',
      created_by: 'AGENT',
      user_replies_count: 1,
      html_text: text,
      labels: [],
      entity_type: 'tickets',
    });
    expect(res.body.created_time).toBeGreaterThan(1_700_000_000_000); // milliseconds, as the original's tickets
    const notes = await ctx.as(ann).get(`${T}/notes/${res.body.id}`);
    expect(notes.body).toEqual([{ id: expect.any(Number), ticket_id: res.body.id, created_by: 'REQUESTER', created_time: res.body.created_time, plain_text: text, html_text: text, note_type: 'PUBLIC', count: 1 }]);
  });

  it('the requester\'s new contact is made by the contact service: a webhook hears contact.created (and nothing when the contact exists)', async () => {
    const ada = await ctx.user('acme', 'ada@acme.test', { admin: true });
    expect((await ctx.as(ada).post('/dev/api/webhooks').send({ url: 'https://hooks.example.com/crm', events: ['contact.created'] })).status).toBe(200);
    const ticket = await open(ann);
    const deliveries = () => ctx.connection.collection('webhook_deliveries').find({ account: ann.account }).toArray();
    expect((await deliveries()).map((d) => [d.event, d.resource])).toEqual([['contact.created', `contact:${ticket.contactID}`]]);
    await open(ann);
    expect(await deliveries()).toHaveLength(1);
  });

  it('links the contact that has the email (no new contact), takes an assignee and labels, answers XML', async () => {
    const al = (await ctx.as(ann).post('/dev/api/contacts').send(person('Al', 'al@acme.test'))).body.id;
    const before = await contactModel(ctx.connection).countDocuments();
    const res = await ctx.as(ann).post(`${T}/new-ticket`).set('Accept', 'application/xml').send({ ...sample(), requester_email: 'al@acme.test', assigneeID: bob.id, labels: ['billing', 'billing', 'vip'] });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^<\?xml[^>]*\?><ticket><id>\d+<\/id><groupID>\d+<\/groupID><assigned_to_group>false<\/assigned_to_group><assigneeID>\d+<\/assigneeID>/);
    expect(res.text).toContain(`<contactID>${al}</contactID>`);
    expect(res.text).toContain('<labels>billing</labels><labels>vip</labels>');
    expect(await contactModel(ctx.connection).countDocuments()).toBe(before);
  });

  it('reads an XML body (the Java client\'s way), lists included', async () => {
    const xml = `<ticket><requester_name>Al</requester_name><requester_email>al@x.test</requester_email><subject>S</subject><priority>HIGH</priority><status>NEW</status><groupID>${support}</groupID><html_text>&lt;b&gt;Hi&lt;/b&gt;</html_text><cc_emails>a@x.test</cc_emails><cc_emails>b@x.test</cc_emails><labels>vip</labels></ticket>`;
    const res = await ctx.as(ann).post(`${T}/new-ticket`).set('Content-Type', 'application/xml').send(xml);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ html_text: '<b>Hi</b>', cc_emails: ['a@x.test', 'b@x.test'], labels: ['vip'], priority: 'HIGH' });
  });

  it('tickets of one new requester at once make one contact, which every ticket links', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => ctx.as(ann).post(`${T}/new-ticket`).send({ ...sample(), requester_email: 'rush@x.test' })));
    expect(answers.map((res) => res.status)).toEqual(Array(6).fill(200));
    const contacts = await contactModel(ctx.connection).find({ emails: 'rush@x.test' }).lean();
    expect(contacts).toHaveLength(1);
    expect(new Set(answers.map((res) => res.body.contactID))).toEqual(new Set([contacts[0]._id]));
  });

  it('at the account\'s contact limit a new requester is a 406 and nothing is stored; a known requester still gets a ticket', async () => {
    await open(ann, { requester_email: 'known@x.test' });
    await ctx.Account.updateOne({ _id: ann.account }, { $set: { contact_count: 1000 } }); // this file's limit (setupCrmApp's default)
    const before = await storedState(ctx.connection);
    expectError(await ctx.as(ann).post(`${T}/new-ticket`).send({ ...sample(), requester_email: 'new@x.test' }), 406, 'contact_limit_reached');
    expect(await storedState(ctx.connection)).toEqual(before);
    expect((await ctx.as(ann).post(`${T}/new-ticket`).send({ ...sample(), requester_email: 'known@x.test' })).status).toBe(200);
  });

  it('sanitises html_text: no script, event handler or javascript: link is stored or shown', async () => {
    const html = '<p onclick="steal()">Hi <b>there</b><script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">x</a> <a href="https://ok.example">ok</a></p><iframe src="https://evil.example"></iframe>';
    const ticket = await open(ann, { html_text: html });
    expect(ticket.html_text).toBe('<p>Hi <b>there</b><a rel="noopener noreferrer nofollow">x</a> <a href="https://ok.example" rel="noopener noreferrer nofollow">ok</a></p>');
    expect(ticket.first_notes_text).toBe('Hi therex ok');
    const stored = JSON.stringify(await ticketNoteModel(ctx.connection).find().lean()) + JSON.stringify(await ticketModel(ctx.connection).find().lean());
    for (const bad of ['script', 'onclick', 'onerror', 'javascript:', 'iframe']) expect(stored).not.toContain(bad);
  });

  it.each([
    [{ requester_name: undefined }, ['requester_name']],
    [{ requester_email: 'not-an-email' }, ['requester_email']],
    [{ subject: ' ' }, ['subject']],
    [{ subject: 's'.repeat(1001) }, ['subject']],
    [{ priority: 'low' }, ['priority']],
    [{ priority: 'URGENT' }, ['priority']],
    [{ status: 'open' }, ['status']],
    [{ groupID: undefined }, ['groupID']],
    [{ groupID: 'abc' }, ['groupID']],
    [{ groupID: 999 }, ['groupID']],
    [{ html_text: undefined }, ['html_text']],
    [{ html_text: 'h'.repeat(65_537) }, ['html_text']],
    [{ html_text: '<'.repeat(20_000) }, ['html_text']],
    [{ cc_emails: Array.from({ length: 21 }, (_, i) => `c${i}@x.test`) }, ['cc_emails']],
    [{ cc_emails: ['nope'] }, ['cc_emails.0']],
    [{ labels: Array.from({ length: 21 }, (_, i) => `l${i}`) }, ['labels']],
    [{ assigneeID: 999 }, ['assigneeID']],
    [{ type: 'PROBLEM' }, ['type']],
  ])('case %#: 400 naming the field, nothing stored', async (change, fields) => {
    const before = await storedState(ctx.connection);
    expectError(await ctx.as(ann).post(`${T}/new-ticket`).send({ ...sample(), ...change }), 400, 'validation_failed', fields);
    expect(await storedState(ctx.connection)).toEqual(before);
  });

  it('refuses another account\'s group and user (400), no credentials 401, another site 403, Accept text/plain 406', async () => {
    expectError(await ctx.as(zed).post(`${T}/new-ticket`).send(sample()), 400, 'validation_failed', ['groupID']);
    expectError(await ctx.as(ann).post(`${T}/new-ticket`).send({ ...sample(), assigneeID: zed.id }), 400, 'validation_failed', ['assigneeID']);
    expectError(await ctx.as({ ...ann, auth: 'Basic eDp5' }).post(`${T}/new-ticket`).send(sample()), 401, 'unauthorized');
    expectError(await ctx.as(ann).post(`${T}/new-ticket`).set('Origin', 'https://evil.example').send(sample()), 403, 'cross_site_request');
    expectError(await ctx.as(ann).post(`${T}/new-ticket`).set('Accept', 'text/plain').send(sample()), 406, 'not_acceptable');
    expect(await ticketModel(ctx.connection).countDocuments()).toBe(0);
  });
});

describe('a ticket and its first message are stored together', () => {
  it('the message\'s insert failing with the database (503) leaves no ticket, and the retry makes one', async () => {
    const notes = ticketNoteModel(ctx.connection).collection;
    const spy = jest.spyOn(notes, 'insertOne').mockRejectedValueOnce(new MongoNetworkError('connection 7 to 127.0.0.1:27017 closed') as never);
    try {
      const res = await ctx.as(ann).post(`${T}/new-ticket`).send(sample());
      expect(res.status).toBe(503);
    } finally {
      spy.mockRestore();
    }
    expect(await ticketModel(ctx.connection).countDocuments()).toBe(0);
    expect(await ticketNoteModel(ctx.connection).countDocuments()).toBe(0);
    const made = await open(ann);
    expect(await ticketModel(ctx.connection).find().lean()).toEqual([expect.objectContaining({ _id: made.id, notes_count: 1 })]);
    expect(await ticketNoteModel(ctx.connection).countDocuments({ ticket: made.id })).toBe(1);
  });
});

describe('GET /dev/api/tickets/filters and /dev/api/tickets/filter', () => {
  it('lists the built-in filters with the original\'s conditions', async () => {
    const res = await ctx.as(ann).get(`${T}/filters`);
    expect(res.status).toBe(200);
    const is = (RHS: string) => ({ LHS: 'status', CONDITION: 'TICKET_STATUS_IS', RHS });
    const filter = (id: number, name: string, conditions: object[]) => ({ id, name, conditions, owner_id: ann.id, is_default_filter: true });
    expect(res.body).toEqual([
      filter(1, 'All Tickets', [is('NEW'), is('OPEN'), is('PENDING'), is('CLOSED')]),
      filter(2, 'New Tickets', [is('NEW')]),
      filter(3, 'Open Tickets', [is('OPEN')]),
      filter(4, 'Pending Tickets', [is('PENDING')]),
      filter(5, 'Closed Tickets', [is('CLOSED')]),
      filter(6, 'My Tickets', [{ LHS: 'assignee_id', CONDITION: 'EQUALS', RHS: '0' }]),
    ]);
    expect((await ctx.as(ann).get(`${T}/filters`).set('Accept', 'application/xml')).text).toMatch(/^<\?xml[^>]*\?><filters><filter><id>1<\/id><name>All Tickets<\/name><conditions><LHS>status<\/LHS>/);
  });

  it('pages a filter\'s tickets, newest activity first by default, with cursors; each account sees its own', async () => {
    const a = await open(ann, { status: 'NEW' });
    const b = await open(ann, { status: 'OPEN', assigneeID: ann.id });
    const c = await open(ann, { status: 'NEW', assigneeID: bob.id });
    await open(zed, { groupID: (await ctx.as(zed).get(`${T}/groups`)).body[0].id });
    const ids = async (user: TestUser, query: string) => {
      const res = await ctx.as(user).get(`${T}/filter?${query}`);
      expect(res.status).toBe(200);
      return res.body.map((t: { id: number }) => t.id);
    };
    expect(await ids(ann, 'filter_id=1')).toEqual([c.id, b.id, a.id]);
    expect(await ids(ann, 'filter_id=1&global_sort_key=created_time')).toEqual([a.id, b.id, c.id]);
    expect(await ids(ann, 'filter_id=2&page_size=25&global_sort_key=-last_updated_time')).toEqual([c.id, a.id]);
    expect(await ids(ann, 'filter_id=6')).toEqual([b.id]);
    expect(await ids(bob, 'filter_id=6')).toEqual([c.id]);
    expect(await ids(ann, 'filter_id=5')).toEqual([]);
    expect(await ids(zed, 'filter_id=1')).toHaveLength(1);
    const first = await ctx.as(ann).get(`${T}/filter?filter_id=1&page_size=2`);
    expect(first.body.map((t: { id: number }) => t.id)).toEqual([c.id, b.id]);
    expect(first.body[0].count).toBe(3);
    const next = await ctx.as(ann).get(`${T}/filter?filter_id=1&page_size=2&cursor=${encodeURIComponent(first.body[1].cursor)}`);
    expect(next.body).toEqual([{ ...a, count: 3 }]);
    // another account cannot open the cursor
    expect((await ctx.as(zed).get(`${T}/filter?filter_id=1&cursor=${encodeURIComponent(first.body[1].cursor)}`)).status).toBe(400);
    const xml = await ctx.as(ann).get(`${T}/filter?filter_id=2`).set('Accept', 'application/xml');
    expect(xml.text).toMatch(/^<\?xml[^>]*\?><tickets><ticket><id>/);
  });

  it.each([
    ['', ['filter_id']],
    ['filter_id=7', ['filter_id']],
    ['filter_id=abc', ['filter_id']],
    ['filter_id=1&page_size=201', ['page_size']],
    ['filter_id=1&global_sort_key=subject', ['global_sort_key']],
    ['filter_id=1&colour=red', ['colour']],
  ])('%s: 400 naming the parameter', async (query, fields) => {
    const res = await ctx.as(ann).get(`${T}/filter?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.fields.map((f: { field: string }) => f.field)).toEqual(fields);
  });
});

describe('GET and DELETE /dev/api/tickets/{id}', () => {
  it('reads a ticket; deletes it and its notes with {"status":"success"}; then 404; another account 404', async () => {
    const ticket = await open(ann);
    expect((await ctx.as(ann).get(`${T}/${ticket.id}`)).body).toEqual(ticket);
    expectError(await ctx.as(zed).get(`${T}/${ticket.id}`), 404, 'ticket_not_found');
    expectError(await ctx.as(zed).delete(`${T}/${ticket.id}`), 404, 'ticket_not_found');
    const deleted = await ctx.as(ann).delete(`${T}/${ticket.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ status: 'success' });
    expect(await ticketNoteModel(ctx.connection).countDocuments()).toBe(0);
    expectError(await ctx.as(ann).get(`${T}/${ticket.id}`), 404, 'ticket_not_found');
    expectError(await ctx.as(ann).delete(`${T}/${ticket.id}`), 404, 'ticket_not_found');
    expectError(await ctx.as(ann).get(`${T}/0`), 400, 'validation_failed', ['id']);
  });
});

describe('ticket notes', () => {
  it('POST /dev/api/notes/{ticketId} adds a public or private note and answers the ticket; GET lists them oldest first', async () => {
    const ticket = await open(ann);
    const reply = await ctx.as(ann).post(`/dev/api/notes/${ticket.id}`).send({ ticket_id: String(ticket.id), html_text: '<p>We will <i>check</i></p>', note_type: 'PUBLIC' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ...ticket, last_reply_text: 'We will check', last_updated_by: 'AGENT', user_replies_count: 2, last_updated_time: expect.any(Number) });
    const aside = await ctx.as(ann).post(`/dev/api/notes/${ticket.id}`).set('Accept', 'application/xml').send({ html_text: 'internal', note_type: 'PRIVATE' });
    expect(aside.status).toBe(200);
    expect(aside.text).toContain('<last_reply_text>We will check</last_reply_text>');
    expect(aside.text).toContain('<user_replies_count>3</user_replies_count>');
    const notes = await ctx.as(ann).get(`${T}/notes/${ticket.id}`);
    expect(notes.body.map((n: { created_by: string; note_type: string; html_text: string }) => [n.created_by, n.note_type, n.html_text])).toEqual([
      ['REQUESTER', 'PUBLIC', sample().html_text],
      ['AGENT', 'PUBLIC', '<p>We will <i>check</i></p>'],
      ['AGENT', 'PRIVATE', 'internal'],
    ]);
    const xml = await ctx.as(ann).get(`${T}/notes/${ticket.id}?page_size=1`).set('Accept', 'application/xml');
    expect(xml.text).toMatch(/^<\?xml[^>]*\?><ticketNotes><ticketNote><id>\d+<\/id><ticket_id>/);
    expect(xml.text).toContain('<cursor>');
  });

  it('refuses a bad note (400), another account\'s or no ticket (404); the notes routes stay as they were', async () => {
    const ticket = await open(ann);
    expectError(await ctx.as(ann).post(`/dev/api/notes/${ticket.id}`).send({ html_text: 'x', note_type: 'public' }), 400, 'validation_failed', ['note_type']);
    expectError(await ctx.as(ann).post(`/dev/api/notes/${ticket.id}`).send({ note_type: 'PUBLIC' }), 400, 'validation_failed', ['html_text']);
    expectError(await ctx.as(ann).post(`/dev/api/notes/${ticket.id}`).send({ html_text: 'x', ticket_id: 5 }), 400, 'validation_failed', ['ticket_id']);
    expectError(await ctx.as(zed).post(`/dev/api/notes/${ticket.id}`).send({ html_text: 'x' }), 404, 'ticket_not_found');
    expectError(await ctx.as(zed).get(`${T}/notes/${ticket.id}`), 404, 'ticket_not_found');
    expect(await ticketNoteModel(ctx.connection).countDocuments()).toBe(1);
    // POST /dev/api/notes (a CRM note) is unchanged
    const note = await ctx.as(ann).post('/dev/api/notes').send({ subject: 'Call', description: 'Went well' });
    expect(note.status).toBe(200);
    expect(note.body).toMatchObject({ subject: 'Call', entity_type: 'note' });
  });
});

describe('deletes clean up tickets\' links', () => {
  it('a deleted contact leaves its tickets (they stay, with the requester\'s name and email); a removed user is no longer an assignee', async () => {
    const ticket = await open(ann, { assigneeID: bob.id });
    expect((await ctx.as(ann).delete(`/dev/api/contacts/${ticket.contactID}`)).status).toBe(204);
    const after = (await ctx.as(ann).get(`${T}/${ticket.id}`)).body;
    expect(after).not.toHaveProperty('contactID');
    expect(after).toMatchObject({ requester_email: 'yeki@yopmail.com', assigneeID: bob.id });
    await crmData(ctx.connection).users.remove(bob.email);
    const unassigned = (await ctx.as(ann).get(`${T}/${ticket.id}`)).body;
    expect(unassigned).toMatchObject({ assigned_to_group: true, groupID: support });
    expect(unassigned).not.toHaveProperty('assigneeID');
    expect(unassigned).not.toHaveProperty('assigned_time');
  });
});

describe('bounds', () => {
  it('a ticket and a note at their bounds are stored whole and answered within their documented worst size, JSON and XML', async () => {
    const big = '€'.repeat(65_536);
    const ticket = await open(ann, { html_text: big, subject: 's'.repeat(1000), requester_name: 'n'.repeat(100), cc_emails: Array.from({ length: 20 }, (_, i) => `${'c'.repeat(240)}${i}@x.test`), labels: Array.from({ length: 20 }, (_, i) => `${'l'.repeat(48)}${i}`) });
    expect(ticket.html_text).toBe(big);
    expect((await ctx.as(ann).post(`/dev/api/notes/${ticket.id}`).send({ html_text: big })).status).toBe(200);
    for (const accept of ['application/json', 'application/xml']) {
      const list = await ctx.as(ann).get(`${T}/filter?filter_id=1`).set('Accept', accept);
      expect(Buffer.byteLength(list.text)).toBeLessThanOrEqual(TICKET_WORST_BYTES.sent);
      const notes = await ctx.as(ann).get(`${T}/notes/${ticket.id}?page_size=1`).set('Accept', accept);
      expect(Buffer.byteLength(notes.text)).toBeLessThanOrEqual(TICKET_NOTE_WORST_BYTES.sent);
    }
  });

  it('a ticket holds at most 1000 notes: the next is a 400 naming html_text', async () => {
    const ticket = await open(ann);
    await ticketModel(ctx.connection).updateOne({ _id: ticket.id }, { $set: { notes_count: 1000 } });
    expectError(await ctx.as(ann).post(`/dev/api/notes/${ticket.id}`).send({ html_text: 'one more' }), 400, 'bad_request', ['html_text']);
  });
});
