/**
 * The official Java client (github agilecrm/java-api: Jersey 1.9 client, JAXB stubs) replayed on the
 * wire: every call of its ContactAPI, DealAPI and NoteAPI that the spec covers, plus the APIManager
 * handshake, with the method, path, query, headers and body its source puts there. Bodies are what
 * JAXB marshals the client's stubs to (`Contact` → `<contact>`, `Deal` → `<opportunity>`, `Note` →
 * `<note>`, `ContactField` → `<contactField>`; unset fields left out, lists as repeated elements,
 * doubles as `600.0`). No code of the client is here.
 */
import { XMLParser } from 'fast-xml-parser';
import request from 'supertest';
import { dealHelpers } from '../deal-helpers';
import { setupCrmApp, type TestUser } from '../setup-app';

const ctx = setupCrmApp();
const helpers = dealHelpers(ctx);

/** What HttpURLConnection sends as Accept when a Jersey call sets none. */
const JAVA_DEFAULT_ACCEPT = 'text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2';
const XML = 'application/xml';
const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';
const JAXB_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

/** Requests as the client's WebResource sends them: Basic credentials (HTTPBasicAuthFilter), Java's user agent and default Accept. */
function java(user: TestUser) {
  const agent = request(ctx.app);
  const base = (test: request.Test) => test.set('Authorization', user.auth).set('User-Agent', 'Java/17.0.15').set('Accept', JAVA_DEFAULT_ACCEPT);
  return {
    get: (path: string) => base(agent.get(path)),
    post: (path: string) => base(agent.post(path)),
    put: (path: string) => base(agent.put(path)),
    delete: (path: string) => base(agent.delete(path)),
  };
}

const elementText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** JAXB's output for one object: its set properties in order, lists repeated, nothing for null. */
function jaxb(root: string, fields: [string, unknown][]): string {
  const element = (name: string, value: unknown): string => {
    if (value === undefined || value === null) return '';
    if (Array.isArray(value)) return value.map((item) => element(name, item)).join('');
    if (typeof value === 'object') return `<${name}>${Object.entries(value).map(([k, v]) => element(k, v)).join('')}</${name}>`;
    return `<${name}>${elementText(String(value))}</${name}>`;
  };
  return `${JAXB_DECLARATION}<${root}>${fields.map(([name, value]) => element(name, value)).join('')}</${root}>`;
}

const readXml = (text: string) =>
  new XMLParser({ parseTagValue: false, isArray: (name) => ['opportunity', 'contact', 'note', 'properties', 'tags', 'contact_ids', 'contacts'].includes(name) }).parse(text);

/** TestContact.java's person: Contact.setContactField / setCustomField / setTags / setLead_score. */
const annieXml = jaxb('contact', [
  ['lead_score', 3],
  [
    'properties',
    [
      { name: 'first_name', type: 'SYSTEM', value: 'Annie' },
      { name: 'last_name', type: 'SYSTEM', value: 'Besant' },
      { name: 'company', type: 'SYSTEM', value: 'London School Board' },
      { name: 'email', type: 'SYSTEM', value: 'annie@henry.com' },
      { name: 'title', type: 'SYSTEM', value: 'socialist' },
      { name: 'phone', type: 'SYSTEM', value: '+48624981' },
      { name: 'website', type: 'SYSTEM', value: 'http://agile-crm-cloud.appspot.com' },
      { name: 'address', type: 'SYSTEM', value: '{"city":"Clapham","state":"London","country":"United Kingdom"}' },
      { name: 'Date Of Joining', type: 'CUSTOM', value: 'Test Add Custom Field' },
    ],
  ],
  ['tags', ['developer', 'subscribe', 'connection']],
  ['type', 'PERSON'],
]);

let ann: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
});

/** ContactAPI.addContact: POST /api/contacts, Accept JSON, the Contact as XML (Jersey's default type for a JAXB entity). */
async function addAnnie(user = ann): Promise<{ id: number } & Record<string, unknown>> {
  const res = await java(user).post('/dev/api/contacts').set('Accept', JSON_TYPE).set('Content-Type', XML).send(annieXml);
  expect(res.status).toBe(200);
  return res.body;
}

describe('APIManager', () => {
  it('new APIManager(baseUrl, user, key): GET /dev/api answers 200 for valid credentials', async () => {
    const res = await java(ann).get('/dev/api');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ann.id, email: 'ann@acme.test', domain: 'acme' });
  });

  it('…and 401 for a wrong key, so the constructor throws', async () => {
    const res = await java({ ...ann, auth: `Basic ${Buffer.from('ann@acme.test:wrong').toString('base64')}` }).get('/dev/api');
    expect(res.status).toBe(401);
  });
});

describe('ContactAPI', () => {
  it('addContact (C3): the XML contact is stored as its JSON twin would be', async () => {
    const created = await addAnnie();
    expect(created).toMatchObject({ type: 'PERSON', lead_score: 3, tags: ['developer', 'subscribe', 'connection'] });
    const properties = created.properties as { name: string; type: string; value: string }[];
    expect(properties).toHaveLength(9);
    expect(properties).toContainEqual({ name: 'address', type: 'SYSTEM', value: '{"city":"Clapham","state":"London","country":"United Kingdom"}' });
    expect(properties).toContainEqual({ name: 'Date Of Joining', type: 'CUSTOM', value: 'Test Add Custom Field' });
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(1);
  });

  it("addContact of TestContact's company with tags is refused as the spec says (tags are not for companies), nothing stored", async () => {
    const company = jaxb('contact', [
      [
        'properties',
        [
          { name: 'name', type: 'SYSTEM', value: 'ClickDesk' },
          { name: 'url', type: 'SYSTEM', value: 'https://www.clickdesk.com' },
        ],
      ],
      ['tags', ['Product based', 'Service based']],
      ['type', 'COMPANY'],
    ]);
    const res = await java(ann).post('/dev/api/contacts').set('Accept', JSON_TYPE).set('Content-Type', XML).send(company);
    expect(res.status).toBe(400);
    expect(res.body.error.fields.map((f: { field: string }) => f.field)).toContain('tags');
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(0);
  });

  it('getContacts (C1): GET /api/contacts/?page_size=10&global_sort_key=-created_time, Accept JSON, newest first', async () => {
    const first = await addAnnie();
    const second = await java(ann)
      .post('/dev/api/contacts')
      .set('Accept', JSON_TYPE)
      .set('Content-Type', XML)
      .send(jaxb('contact', [['properties', [{ name: 'first_name', type: 'SYSTEM', value: 'Mark' }]]]));
    expect(second.status).toBe(200);
    const res = await java(ann).get('/dev/api/contacts/?page_size=10&global_sort_key=-created_time').set('Accept', JSON_TYPE);
    expect(res.status).toBe(200);
    expect(res.body.map((c: { id: number }) => c.id)).toEqual([second.body.id, first.id]);
  });

  it('getContact (C2): GET /api/contacts/{id}, Accept XML: a <contact> JAXB reads', async () => {
    const created = await addAnnie();
    const res = await java(ann).get(`/dev/api/contacts/${created.id}`).set('Accept', XML);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const { contact } = readXml(res.text);
    expect(contact[0]).toMatchObject({ id: String(created.id), type: 'PERSON', lead_score: '3', tags: ['developer', 'subscribe', 'connection'] });
    expect(contact[0].properties).toContainEqual({ name: 'first_name', type: 'SYSTEM', value: 'Annie' });
  });

  it('getContactFromEmail: GET /api/contacts/search/email/{email}, Accept XML', async () => {
    const created = await addAnnie();
    const res = await java(ann).get('/dev/api/contacts/search/email/annie@henry.com').set('Accept', XML);
    expect(res.status).toBe(200);
    expect(readXml(res.text).contact[0].id).toBe(String(created.id));
  });

  it('updateContactPartialUpdate: PUT /api/contacts/edit-properties, JSON string body', async () => {
    const created = await addAnnie();
    const json = `{"id":${created.id}, "properties":[ {"type":"SYSTEM", "name":"first_name", "value":"Jason"}, {"type":"CUSTOM", "name":"My custom field of type date", "value":"1481871525"}]}`;
    const res = await java(ann).put('/dev/api/contacts/edit-properties').set('Accept', JSON_TYPE).set('Content-Type', JSON_TYPE).send(json);
    expect(res.status).toBe(200);
    expect(res.body.properties).toContainEqual({ name: 'first_name', type: 'SYSTEM', value: 'Jason' });
    expect(res.body.properties).toContainEqual({ name: 'last_name', type: 'SYSTEM', value: 'Besant' });
    expect(res.body.properties).toContainEqual({ name: 'My custom field of type date', type: 'CUSTOM', value: '1481871525' });
  });

  it("addTagsToEmail (C7): form tags=[alfa1, alfa2, alfa3] (a Java list's toString), Accept XML: 204", async () => {
    const created = await addAnnie();
    const res = await java(ann).post('/dev/api/contacts/email/tags/add').set('Accept', XML).set('Content-Type', FORM).send('tags=%5Balfa1%2C+alfa2%2C+alfa3%5D&email=annie%40henry.com');
    expect(res.status).toBe(204);
    const stored = await ctx.Contact.findOne({ account: ann.account, _id: created.id }).lean();
    expect(Object.keys(stored?.tag_times ?? {})).toEqual(['developer', 'subscribe', 'connection', 'alfa1', 'alfa2', 'alfa3']);
  });

  it('deleteTags (C8): form tags=[alfa2, alfa4], Accept XML: 204, the present tag removed', async () => {
    const created = await addAnnie();
    await java(ann).post('/dev/api/contacts/email/tags/add').set('Content-Type', FORM).send('tags=%5Balfa1%2C+alfa2%5D&email=annie%40henry.com').expect(204);
    const res = await java(ann).post('/dev/api/contacts/email/tags/delete').set('Accept', XML).set('Content-Type', FORM).send('tags=%5Balfa2%2C+alfa4%5D&email=annie%40henry.com');
    expect(res.status).toBe(204);
    const stored = await ctx.Contact.findOne({ account: ann.account, _id: created.id }).lean();
    expect(Object.keys(stored?.tag_times ?? {})).toEqual(['developer', 'subscribe', 'connection', 'alfa1']);
  });

  it('addTagsByContactId: PUT /api/contacts/edit/tags, JSON with the id as a string', async () => {
    const created = await addAnnie();
    const res = await java(ann).put('/dev/api/contacts/edit/tags').set('Accept', JSON_TYPE).set('Content-Type', JSON_TYPE).send(`{"id":"${created.id}","tags":["tag1", "tag2"]}`);
    expect(res.status).toBe(200);
    expect(res.body.tags).toEqual(['developer', 'subscribe', 'connection', 'tag1', 'tag2']);
  });

  it('addScoreToEmail (C9): form score=5&email=…, Accept JSON', async () => {
    await addAnnie();
    const res = await java(ann).post('/dev/api/contacts/add-score').set('Accept', JSON_TYPE).set('Content-Type', FORM).send('score=5&email=annie%40henry.com');
    expect(res.status).toBe(200);
    expect(res.body.lead_score).toBe(8);
  });

  it('addProperty (C11): POST api/contacts/add/property?email=, a <contactField> without type', async () => {
    const created = await addAnnie();
    const body = jaxb('contactField', [
      ['name', 'title'],
      ['value', 'reformer'],
    ]);
    const res = await java(ann).post('/dev/api/contacts/add/property?email=annie%40henry.com').set('Content-Type', XML).send(body);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.id).toBe(created.id);
    expect(res.body.properties).toContainEqual({ name: 'title', type: 'SYSTEM', value: 'reformer' });
    expect(res.body.properties.filter((p: { name: string }) => p.name === 'title')).toHaveLength(1);

    const custom = jaxb('contactField', [
      ['name', 'Shoe size'],
      ['value', '9'],
    ]);
    const again = await java(ann).post('/dev/api/contacts/add/property?email=annie%40henry.com').set('Content-Type', XML).send(custom);
    expect(again.status).toBe(200);
    expect(again.body.properties).toContainEqual({ name: 'Shoe size', type: 'CUSTOM', value: '9' });
  });

  it('deleteContact (C5): DELETE /api/contacts/{id} with Accept text/plain: 204 and gone', async () => {
    const created = await addAnnie();
    const res = await java(ann).delete(`/dev/api/contacts/${created.id}`).set('Accept', 'text/plain');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(0);
  });
});

describe('DealAPI', () => {
  /** A Deal with the fields the spec requires set (setPipeline_id, setOwner_id, setClose_date) besides TestDeal's. */
  async function dealXml(contactIds: number[]) {
    const track = await helpers.defaultTrack(ann);
    return {
      track,
      xml: jaxb('opportunity', [
        ['close_date', 1800000000],
        ['contact_ids', contactIds.map(String)],
        ['expected_value', '600.0'],
        ['milestone', 'New'],
        ['name', 'Test Deal1'],
        ['owner_id', ann.id],
        ['pipeline_id', track.id],
        ['probability', 50],
      ]),
    };
  }

  async function addDeal(contactIds: number[]) {
    const { xml, track } = await dealXml(contactIds);
    const res = await java(ann).post('/dev/api/opportunity').set('Accept', XML).set('Content-Type', XML).send(xml);
    expect(res.status).toBe(200);
    return { track, deal: readXml(res.text).opportunity[0] as Record<string, unknown> & { id: string } };
  }

  it('addDeal (D3): POST /api/opportunity, XML in, Accept XML: an <opportunity> back', async () => {
    const a = await helpers.contact(ann, 'Al');
    const b = await helpers.contact(ann, 'Bo');
    const { track, deal } = await addDeal([a.id, b.id]);
    expect(deal).toMatchObject({ name: 'Test Deal1', expected_value: '600', milestone: 'New', probability: '50', pipeline_id: String(track.id), contact_ids: [String(a.id), String(b.id)] });
    expect(await helpers.Deal().countDocuments({ account: ann.account })).toBe(1);
  });

  it("addDeal of TestDeal's deal as it stands (no pipeline, owner or close date) is a 400 naming them, nothing stored", async () => {
    const body = jaxb('opportunity', [
      ['expected_value', '600.0'],
      ['milestone', 'New'],
      ['name', 'Test Deal1'],
      ['probability', 50],
    ]);
    const res = await java(ann).post('/dev/api/opportunity').set('Accept', XML).set('Content-Type', XML).send(body);
    expect(res.status).toBe(400);
    const fields = readXml(res.text).error.message as string;
    expect(fields).toMatch(/pipeline_id/);
    expect(fields).toMatch(/close_date/);
    expect(fields).toMatch(/owner_id/);
    expect(await helpers.Deal().countDocuments({ account: ann.account })).toBe(0);
  });

  it('getDeals (D1): GET /api/opportunity, Accept JSON', async () => {
    const { deal } = await addDeal([]);
    const res = await java(ann).get('/dev/api/opportunity').set('Accept', JSON_TYPE);
    expect(res.status).toBe(200);
    expect(res.body.map((d: { id: number }) => d.id)).toEqual([Number(deal.id)]);
  });

  it('getDealsByPageSizeAndCursor (D1): Accept XML, read as List<Deal>: <opportunity> elements under one root', async () => {
    await addDeal([]);
    await addDeal([]);
    const res = await java(ann).get('/dev/api/opportunity?page_size=1&cursor=').set('Accept', XML);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^<\?xml[^>]*\?><collection><opportunity><id>\d+<\/id>/);
    const page = readXml(res.text).collection.opportunity;
    expect(page).toHaveLength(1);
    const next = await java(ann).get(`/dev/api/opportunity?page_size=1&cursor=${encodeURIComponent(page[0].cursor)}`).set('Accept', XML);
    expect(next.status).toBe(200);
    expect(readXml(next.text).collection.opportunity[0].id).not.toBe(page[0].id);
  });

  it('getDealByDealId (D2) then updateDeal (D4): the fetched deal sent back as JAXB writes it, with a new milestone and value', async () => {
    const a = await helpers.contact(ann, 'Al');
    const { deal } = await addDeal([a.id]);
    const fetched = await java(ann).get(`/dev/api/opportunity/${deal.id}`).set('Accept', JSON_TYPE);
    expect(fetched.status).toBe(200);
    const d = fetched.body;
    // what the client's Deal holds after reading that JSON (its own fields only), re-marshalled by JAXB
    const contacts = d.contacts.map((c: Record<string, unknown>) => ({ id: c.id, properties: c.properties, type: c.type, created_time: c.created_time, domainUser: {}, tags_with_time_json: {} }));
    const body = jaxb('opportunity', [
      ['close_date', d.close_date],
      ['contact_ids', d.contact_ids],
      ['contacts', contacts],
      ['created_time', d.created_time],
      ['description', d.description || null],
      ['expected_value', '90.0'],
      ['id', d.id],
      ['milestone', 'Prospect'],
      ['name', d.name],
      ['owner_id', d.owner_id],
      ['pipeline_id', d.pipeline_id],
      ['probability', d.probability],
      ['track', d.track],
    ]);
    const res = await java(ann).put('/dev/api/opportunity').set('Content-Type', XML).send(body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: d.id, milestone: 'Prospect', expected_value: 90, contact_ids: [String(a.id)] });
    expect((await helpers.Deal().findOne({ _id: d.id }).lean())?.milestone).toBe('Prospect');
  });

  it('deleteDealByDealId (D6): DELETE api/opportunity/{id}, Java default Accept', async () => {
    const { deal } = await addDeal([]);
    const res = await java(ann).delete(`/dev/api/opportunity/${deal.id}`);
    expect(res.status).toBe(200);
    expect(await helpers.Deal().countDocuments({ account: ann.account })).toBe(0);
  });

  it('deleteDealByDealId with Accept text/plain still deletes (200, body not read)', async () => {
    const { deal } = await addDeal([]);
    const res = await java(ann).delete(`/dev/api/opportunity/${deal.id}`).set('Accept', 'text/plain');
    expect(res.status).toBe(200);
    expect(await helpers.Deal().countDocuments({ account: ann.account })).toBe(0);
  });

  it('deleteDeals (D7): form ids=[a, b] (a Java list of strings), no Accept', async () => {
    const one = (await addDeal([])).deal;
    const two = (await addDeal([])).deal;
    const keep = (await addDeal([])).deal;
    const res = await java(ann).post('/dev/api/opportunity/bulk').set('Content-Type', FORM).send(`ids=${encodeURIComponent(`[${one.id}, ${two.id}]`)}`);
    expect(res.status).toBe(200);
    expect(res.body.deleted.sort()).toEqual([Number(one.id), Number(two.id)].sort());
    expect((await helpers.Deal().find({ account: ann.account }).lean()).map((d) => d._id)).toEqual([Number(keep.id)]);
  });
});

describe('NoteAPI', () => {
  async function addNote(contactIds: number[]) {
    const body = jaxb('note', [
      ['contact_ids', contactIds.map(String)],
      ['description', 'Testing to add note1'],
      ['subject', 'Test Note1'],
    ]);
    const res = await java(ann).post('/dev/api/notes').set('Content-Type', XML).send(body);
    expect(res.status).toBe(200);
    return res.body as { id: number; contacts: string[] };
  }

  it('addNoteToContactIds (N1): POST /api/notes, a <note> with repeated contact_ids', async () => {
    const a = await helpers.contact(ann, 'Al');
    const b = await helpers.contact(ann, 'Bo');
    const note = await addNote([a.id, b.id]);
    expect(note).toMatchObject({ subject: 'Test Note1', description: 'Testing to add note1', contacts: [String(a.id), String(b.id)] });
  });

  it('getNotesByContactId (N3): GET /api/contacts/{id}/notes, Java default Accept', async () => {
    const a = await helpers.contact(ann, 'Al');
    const note = await addNote([a.id]);
    const res = await java(ann).get(`/dev/api/contacts/${a.id}/notes`);
    expect(res.status).toBe(200);
    expect(res.body.map((n: { id: number }) => n.id)).toEqual([note.id]);
  });

  it('the same list as XML is a <collection> of <note>, what NoteCollection reads', async () => {
    const a = await helpers.contact(ann, 'Al');
    const note = await addNote([a.id]);
    const res = await java(ann).get(`/dev/api/contacts/${a.id}/notes`).set('Accept', XML);
    expect(res.status).toBe(200);
    expect(readXml(res.text).collection.note[0]).toMatchObject({ id: String(note.id), subject: 'Test Note1' });
  });

  it('deleteNoteByContactId (N4): DELETE /api/contacts/{id}/notes/{noteId}: 204, the relation gone', async () => {
    const a = await helpers.contact(ann, 'Al');
    const note = await addNote([a.id]);
    const res = await java(ann).delete(`/dev/api/contacts/${a.id}/notes/${note.id}`);
    expect(res.status).toBe(204);
    const list = await java(ann).get(`/dev/api/contacts/${a.id}/notes`).set('Accept', JSON_TYPE);
    expect(list.body).toEqual([]);
  });
});
