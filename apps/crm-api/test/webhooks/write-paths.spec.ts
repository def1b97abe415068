import { createLogger } from '@lib/http';
import { Webhook } from 'standardwebhooks';
import { deliveryModel, type DeliveryDoc } from '../../src/webhooks/webhook-delivery.model';
import { crmWebhooks } from '../../src/wiring';
import { dealHelpers } from '../deal-helpers';
import { company, person, setupCrmApp, type TestUser } from '../setup-app';
import { testSettings } from './engine-parts';
import { useReceiver, type Received } from './receiver';

/**
 * Every crm write path records its events, through the HTTP API as a client sees it: a real
 * receiver gets each one, signed (verified by the standardwebhooks package), with `eventData` equal
 * to what the record's GET answers (or answered, for a delete), in the order of the changes. On an
 * embedded server of its own: its transactions hold that server's one write lock.
 */
const settings = testSettings();
const ctx = setupCrmApp({ webhooks: settings, ownServer: true });
const h = dealHelpers(ctx);
const FORM = 'application/x-www-form-urlencoded';

let admin: TestUser;
let secret: string;
const worker = () => crmWebhooks(ctx.connection, createLogger('test', 'silent'), settings).worker;

const receiver = useReceiver(worker);
beforeEach(async () => {
  admin = await ctx.user('acme', 'ada@acme.test', { admin: true });
  const res = await ctx.as(admin).post('/dev/api/webhooks').send({ url: receiver().url(), events: ['*'] });
  expect(res.status).toBe(200);
  secret = res.body.secret;
  worker().start();
});
afterEach(() => worker().stop());

/** The events received (verified, in arrival order) once `count` arrived, as `name id`, with their data. */
async function eventsReceived(count: number) {
  const got = await receiver().waitFor(count);
  // a little longer: nothing more than expected may arrive
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(receiver().received).toHaveLength(count);
  return got.map((r: Received) => {
    const body = new Webhook(secret).verify(r.body, { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) }) as {
      eventName: string;
      eventData: { id: number | string } & Record<string, unknown>;
    };
    return { name: body.eventName, id: Number(body.eventData.id), data: body.eventData };
  });
}

const byName = (events: Array<{ name: string; id: number }>) => events.map((e) => `${e.name} ${e.id}`);

it('contacts and companies: create, update, tags, score, star, owner, properties, delete, each once with the record as its GET shows it', async () => {
  const acme = await ctx.as(admin).post('/dev/api/contacts').send(company('Acme Co'));
  const al = await ctx.as(admin).post('/dev/api/contacts').send(person('Al', 'al@acme.test'));
  const bob = await ctx.user('acme', 'bob@acme.test');
  const steps = [
    await ctx.as(admin).put('/dev/api/contacts').send({ id: al.body.id, lead_score: 5 }),
    await ctx.as(admin).put('/dev/api/contacts/edit/tags').send({ id: al.body.id, tags: ['VIP'] }),
    await ctx.as(admin).post('/dev/api/contacts/add-score').type('form').send({ email: 'al@acme.test', score: '3' }),
    await ctx.as(admin).put('/dev/api/contacts/edit/add-star').send({ id: al.body.id, star_value: 4 }),
    await ctx.as(admin).post('/dev/api/contacts/change-owner').type('form').send({ contact_id: String(al.body.id), owner_email: bob.email }),
    await ctx.as(admin).put('/dev/api/contacts/edit-properties').send({ id: al.body.id, properties: [{ type: 'SYSTEM', name: 'title', value: 'CEO' }] }),
  ];
  expect([acme.status, al.status, ...steps.map((r) => r.status)]).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
  const shown = await ctx.as(admin).get(`/dev/api/contacts/${al.body.id}`);
  expect((await ctx.as(admin).delete(`/dev/api/contacts/${al.body.id}`)).status).toBe(204);

  const all = await eventsReceived(9);
  expect(byName(all.filter((e) => e.id === acme.body.id))).toEqual([`company.created ${acme.body.id}`]);
  const events = all.filter((e) => e.id === al.body.id); // one record's events: in the order of its changes
  expect(byName(events)).toEqual([`Contact is Created ${al.body.id}`, ...Array.from({ length: 6 }, () => `Contact is Updated ${al.body.id}`), `Contact is Deleted ${al.body.id}`]);
  // each event shows the record as the request's own answer did; the delete, as it was
  expect(all.find((e) => e.id === acme.body.id)!.data).toEqual(acme.body);
  expect(events[0].data).toEqual(al.body);
  steps.forEach((step, i) => expect({ step: i, data: events[1 + i].data }).toEqual({ step: i, data: step.body }));
  expect(events[7].data).toEqual(shown.body);
  expect(events[7].data).toMatchObject({ lead_score: 8, star_value: 4, tags: ['VIP'], domainUser: { email: bob.email } });
});

it('bulk operations: one event per record', async () => {
  const ids: number[] = [];
  for (const name of ['A', 'B', 'C']) ids.push((await ctx.as(admin).post('/dev/api/contacts').send(person(name))).body.id);
  const bulk = (action: string, fields: Record<string, string>) =>
    ctx.as(admin).post(`/dev/api/bulk/update?action_type=${action}`).set('Accept', '*/*').set('Content-Type', FORM).send(new URLSearchParams(fields).toString());
  expect((await bulk('ADD_TAG', { data: JSON.stringify(['Lead']), contact_ids: JSON.stringify(ids) })).status).toBe(204);
  const bob = await ctx.user('acme', 'bob@acme.test');
  expect((await bulk(`CHANGE_OWNER&owner=${bob.id}`, { contact_ids: JSON.stringify(ids.slice(0, 2)) })).status).toBe(204);
  // B holds the tag already: only A and C change
  await ctx.as(admin).put('/dev/api/contacts/delete/tags').send({ id: ids[1], tags: ['Lead'] });
  expect((await bulk('REMOVE_TAG', { data: JSON.stringify(['Lead']), contact_ids: JSON.stringify(ids) })).status).toBe(204);
  expect((await bulk('DELETE', { contact_ids: JSON.stringify(ids) })).status).toBe(204);

  const events = byName(await eventsReceived(3 + 3 + 2 + 1 + 2 + 3));
  const of = (name: string) => events.filter((e) => e.startsWith(name)).sort();
  expect(of('Contact is Created')).toEqual(ids.map((id) => `Contact is Created ${id}`).sort());
  expect(of('Contact is Updated')).toEqual([...ids, ids[0], ids[1], ids[1], ids[0], ids[2]].map((id) => `Contact is Updated ${id}`).sort());
  expect(of('Contact is Deleted')).toEqual(ids.map((id) => `Contact is Deleted ${id}`).sort());
});

it('deals, notes, tasks, events and tracks: created, updated, deleted, with the data of their answers', async () => {
  const al = await h.contact(admin, 'Al', 'al@acme.test');
  const track = await h.createTrack(admin, 'Sales', 'Open,Won');
  const renamed = await ctx.as(admin).put('/dev/api/milestone/pipelines').send({ id: track.id, name: 'Sales 2', milestone: 'Open,Won,Lost' });
  const deal = await h.createDeal(admin, track, { contact_ids: [al.id] });
  const patched = await ctx.as(admin).put('/dev/api/opportunity/partial-update').send({ id: deal.id, expected_value: 9000 });
  const note = await ctx.as(admin).post('/dev/api/notes').send({ subject: 'S', description: 'D', contact_ids: [al.id], deal_ids: [deal.id] });
  const noteEdit = await ctx.as(admin).put('/dev/api/notes').send({ id: note.body.id, subject: 'S2' });
  const task = await ctx.as(admin).post('/dev/api/tasks').send({ subject: 'Call', type: 'CALL', priority_type: 'HIGH', due: 1_800_000_000, contacts: [al.id] });
  const taskEdit = await ctx.as(admin).put('/dev/api/tasks/partial-update').send({ id: task.body.id, status: 'COMPLETED' });
  const event = await ctx.as(admin).post('/dev/api/events').send({ title: 'Meet', start: 1_800_000_000, end: 1_800_003_600, contact_ids: [al.id] });
  const eventEdit = await ctx.as(admin).put('/dev/api/events').send({ id: event.body.id, title: 'Meet 2' });
  const dealShown = await ctx.as(admin).get(`/dev/api/opportunity/${deal.id}`); // with its note now
  const deletes = [
    await ctx.as(admin).delete(`/dev/api/events/${event.body.id}`),
    await ctx.as(admin).delete(`/dev/api/tasks/${task.body.id}`),
    await ctx.as(admin).delete(`/dev/api/opportunity/${deal.id}`),
    await ctx.as(admin).delete(`/dev/api/milestone/pipelines/${track.id}`),
  ];
  expect([renamed, patched, note, noteEdit, task, taskEdit, event, eventEdit].map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
  expect(deletes.map((r) => r.status)).toEqual([204, 204, 200, 204]);

  const events = (await eventsReceived(1 + 14)).slice(1);
  // per record, in the order of its changes (records among themselves: in any order)
  const ofRecord = (id: number) => byName(events.filter((e) => e.id === id)).map((e) => e.split(' ').slice(0, -1).join(' '));
  expect(ofRecord(track.id)).toEqual(['track.created', 'track.updated', 'track.deleted']);
  expect(ofRecord(deal.id)).toEqual(['Opportunity is Created', 'Opportunity is Updated', 'Opportunity is Deleted']);
  expect(ofRecord(note.body.id)).toEqual(['note.created', 'note.updated']);
  expect(ofRecord(task.body.id)).toEqual(['task.created', 'task.updated', 'task.deleted']);
  expect(ofRecord(event.body.id)).toEqual(['event.created', 'event.updated', 'event.deleted']);
  const data = (name: string, id: number) => events.find((e) => e.name === name && e.id === id)?.data;
  expect([data('track.created', track.id), data('track.updated', track.id), data('track.deleted', track.id)]).toEqual([track, renamed.body, renamed.body]);
  expect([data('Opportunity is Created', deal.id), data('Opportunity is Updated', deal.id), data('Opportunity is Deleted', deal.id)]).toEqual([deal, patched.body, dealShown.body]);
  expect([data('note.created', note.body.id), data('note.updated', note.body.id)]).toEqual([note.body, noteEdit.body]);
  expect([data('task.created', task.body.id), data('task.updated', task.body.id), data('task.deleted', task.body.id)]).toEqual([task.body, taskEdit.body, taskEdit.body]);
  expect([data('event.created', event.body.id), data('event.updated', event.body.id), data('event.deleted', event.body.id)]).toEqual([event.body, eventEdit.body, eventEdit.body]);
});

it('tickets and documents: created, updated (a ticket by each note), deleted, with the data of their answers; the requester made for a ticket sends contact.created', async () => {
  const T = '/dev/api/tickets';
  const group = (await ctx.as(admin).get(`${T}/groups`)).body[0].id;
  const ticket = await ctx.as(admin).post(`${T}/new-ticket`).send({ requester_name: 'Yeki Tester', requester_email: 'yeki@acme.test', subject: 'Help', priority: 'LOW', status: 'OPEN', groupID: String(group), html_text: '<p>Hello</p>' });
  const reply = await ctx.as(admin).post(`/dev/api/notes/${ticket.body.id}`).send({ html_text: 'On it', note_type: 'PUBLIC' });
  const aside = await ctx.as(admin).post(`/dev/api/notes/${ticket.body.id}`).send({ html_text: 'internal', note_type: 'PRIVATE' });
  const ticketShown = await ctx.as(admin).get(`${T}/${ticket.body.id}`);
  const ticketGone = await ctx.as(admin).delete(`${T}/${ticket.body.id}`);
  const doc = await ctx.as(admin).post('/dev/api/documents').send({ name: 'Deck', url: 'https://files.example.com/deck.pdf', contact_ids: [String(ticket.body.contactID)] });
  const docEdit = await ctx.as(admin).put('/dev/api/documents').send({ id: doc.body.id, name: 'Deck 2', url: 'https://files.example.com/deck-2.pdf' });
  const docGone = await ctx.as(admin).delete(`/dev/api/documents/${doc.body.id}`);
  const docAgain = await ctx.as(admin).delete(`/dev/api/documents/${doc.body.id}`); // nothing left to delete: no event
  const refused = await ctx.as(admin).post(`/dev/api/notes/${ticket.body.id}`).send({ html_text: 'late' }); // the ticket is gone: no event
  expect([ticket, reply, aside, ticketShown, doc, docEdit].map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  expect([ticketGone, docGone, docAgain, refused].map((r) => r.status)).toEqual([200, 204, 204, 404]);

  const events = await eventsReceived(1 + 4 + 3);
  const ofRecord = (id: number) => events.filter((e) => e.id === id && !e.name.startsWith('Contact')).map((e) => e.name);
  expect(ofRecord(ticket.body.id)).toEqual(['ticket.created', 'ticket.updated', 'ticket.updated', 'ticket.deleted']);
  expect(ofRecord(doc.body.id)).toEqual(['document.created', 'document.updated', 'document.deleted']);
  const data = (name: string, id: number) => events.filter((e) => e.name === name && e.id === id).map((e) => e.data);
  expect(data('Contact is Created', ticket.body.contactID)).toHaveLength(1);
  expect(data('ticket.created', ticket.body.id)).toEqual([ticket.body]);
  expect(data('ticket.updated', ticket.body.id)).toEqual([reply.body, aside.body]);
  expect(data('ticket.deleted', ticket.body.id)).toEqual([ticketShown.body]);
  expect(ticketShown.body).toEqual(aside.body);
  expect(data('document.created', doc.body.id)).toEqual([doc.body]);
  expect([data('document.updated', doc.body.id), data('document.deleted', doc.body.id)]).toEqual([[docEdit.body], [docEdit.body]]);
});

it('notes/bulk: one note.deleted per note deleted, as it was; partial-update/delete-contact: deal.updated as its GET shows it after', async () => {
  const al = await h.contact(admin, 'Al', 'al@acme.test');
  const bo = await h.contact(admin, 'Bo', 'bo@acme.test');
  const deal = await h.createDeal(admin, await h.defaultTrack(admin), { contact_ids: [al.id, bo.id] });
  const notes = [
    await ctx.as(admin).post('/dev/api/notes').send({ subject: 'N1', description: 'D', contact_ids: [al.id] }),
    await ctx.as(admin).post('/dev/api/notes').send({ subject: 'N2', description: 'D', deal_ids: [deal.id] }),
  ];
  const removed = await ctx.as(admin).put('/dev/api/opportunity/partial-update/delete-contact').send({ id: deal.id, contact_ids: [bo.id] });
  const dealAfter = await ctx.as(admin).get(`/dev/api/opportunity/${deal.id}`);
  const bulk = await ctx.as(admin).post('/dev/api/contacts/notes/bulk').set('Content-Type', FORM).send(`ids=${JSON.stringify([notes[0].body.id, notes[1].body.id, 999])}`);
  expect([...notes.map((r) => r.status), removed.status, bulk.status]).toEqual([200, 200, 200, 204]);

  const events = await eventsReceived(2 + 1 + 2 + 1 + 2);
  const data = (name: string, id: number) => events.find((e) => e.name === name && e.id === id)?.data;
  expect(byName(events.filter((e) => e.name === 'note.deleted')).sort()).toEqual(notes.map((n) => `note.deleted ${n.body.id}`).sort());
  expect([data('note.deleted', notes[0].body.id), data('note.deleted', notes[1].body.id)]).toEqual(notes.map((n) => n.body));
  expect(data('Opportunity is Updated', deal.id)).toEqual(removed.body);
  expect(removed.body.contact_ids).toEqual([String(al.id)]);
  expect(dealAfter.body).toEqual(removed.body);
});

it('a deleted company: its persons, which lose it, are reported updated as their GET shows them after', async () => {
  const acme = await ctx.as(admin).post('/dev/api/contacts').send(company('Acme Co'));
  const al = await ctx.as(admin).post('/dev/api/contacts').send(person('Al', undefined, { contact_company_id: acme.body.id }));
  expect((await ctx.as(admin).delete(`/dev/api/contacts/${acme.body.id}`)).status).toBe(204);
  const shown = await ctx.as(admin).get(`/dev/api/contacts/${al.body.id}`);
  expect(shown.body.contact_company_id).toBeUndefined();
  const events = await eventsReceived(4);
  expect(byName(events.filter((e) => e.id === acme.body.id))).toEqual([`company.created ${acme.body.id}`, `company.deleted ${acme.body.id}`]);
  expect(events.filter((e) => e.id === al.body.id).map((e) => [e.name, e.data])).toEqual([
    ['Contact is Created', al.body],
    ['Contact is Updated', shown.body],
  ]);
});

it('a refused write (a deal for an owner of no account user) sends nothing and stores no delivery', async () => {
  const track = await h.defaultTrack(admin);
  const before = await deliveryModel(ctx.connection).countDocuments();
  const refused = await ctx.as(admin).post('/dev/api/opportunity').send(h.dealBody(admin, track, { owner_id: '999999' }));
  expect(refused.status).toBe(400);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await deliveryModel(ctx.connection).countDocuments()).toBe(before);
  expect(receiver().received.filter((r) => r.body.includes('Opportunity'))).toEqual([]);
});

it('stores each delivery with its account, webhook and event, delivered', async () => {
  const al = await h.contact(admin, 'Al');
  await eventsReceived(1);
  const stored = await deliveryModel(ctx.connection).find({}).lean<DeliveryDoc[]>();
  expect(stored).toEqual([expect.objectContaining({ account: admin.account, event: 'contact.created', resource: `contact:${al.id}`, seq: 1, state: 'delivered', attempts: 1 })]);
});
