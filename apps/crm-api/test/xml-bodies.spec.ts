import { expectError, expectRefused, storedState } from './expectations';
import { person, setupCrmApp, type TestUser } from './setup-app';

const ctx = setupCrmApp();
const stored = () => storedState(ctx.connection);

let ann: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
});

const xml = (user: TestUser, method: 'post' | 'put', path: string, body: string, type = 'application/xml') => ctx.as(user)[method](path).set('Content-Type', type).send(body);

const annXml = '<contact><properties><name>first_name</name><type>SYSTEM</type><value>Ann</value></properties><tags>Lead</tags><star_value>4</star_value></contact>';

describe('XML request bodies', () => {
  it('read into the object the same JSON makes: the stored contacts are alike', async () => {
    const fromXml = await xml(ann, 'post', '/dev/api/contacts', annXml);
    const fromJson = await ctx.as(ann).post('/dev/api/contacts').send(person('Ann', undefined, { tags: ['Lead'], star_value: 4 }));
    expect(fromXml.status).toBe(200);
    expect(fromJson.status).toBe(200);
    const strip = ({ id: _id, created_time: _c, updated_time: _u, tags_with_time_json: _t, ...rest }: Record<string, unknown>) => rest;
    expect(strip(fromXml.body)).toEqual(strip(fromJson.body));
    expect(fromXml.body).toMatchObject({ tags: ['Lead'], star_value: 4 });
  });

  it('take text/xml too, with a charset', async () => {
    const res = await xml(ann, 'post', '/dev/api/contacts', annXml, 'text/xml; charset=utf-8');
    expect(res.status).toBe(200);
    expect(res.body.properties).toEqual([{ name: 'first_name', type: 'SYSTEM', value: 'Ann' }]);
  });

  it('decode the predefined entities, character references and CDATA, and keep spaces in text', async () => {
    const body = '<contact><properties><name>first_name</name><type>SYSTEM</type><value> AT&amp;T &#65;&#x42; &lt;x&gt; <![CDATA[<b>&</b>]]></value></properties></contact>';
    const res = await xml(ann, 'post', '/dev/api/contacts', body);
    expect(res.status).toBe(200);
    expect(res.body.properties[0].value).toBe(' AT&T AB <x> <b>&</b>');
  });

  it('make numbers of text where the schema takes a number (1000.0 as a Java double writes it), nowhere else', async () => {
    const created = await xml(ann, 'post', '/dev/api/contacts', annXml);
    const res = await xml(ann, 'put', '/dev/api/contacts/edit/lead-score', `<contact><id>${created.body.id}</id><lead_score>1000.0</lead_score></contact>`);
    expect(res.status).toBe(200);
    expect(res.body.lead_score).toBe(1000);
    await ctx.as(ann).post('/dev/api/contacts').send(person('Bo', 'bo@x.test')).expect(200);
    const text = await xml(ann, 'post', '/dev/api/contacts/add/property?email=bo@x.test', '<contactField><name>Size</name><type>CUSTOM</type><value>12</value></contactField>');
    expect(text.status).toBe(200);
    expect(text.body.properties).toContainEqual({ name: 'Size', type: 'CUSTOM', value: '12' });
  });

  it('refuse a wrong value naming the field, as JSON does, and store nothing', async () => {
    const before = await stored();
    const res = await xml(ann, 'post', '/dev/api/contacts', '<contact><properties><name>first_name</name><type>SYSTEM</type><value>Ann</value></properties><star_value>nine</star_value></contact>');
    expectError(res, 400, 'validation_failed', ['star_value']);
    expect(await stored()).toEqual(before);
  });

  it('refuse an unknown element and a repeated single-valued one, naming them', async () => {
    const unknown = await xml(ann, 'post', '/dev/api/contacts', '<contact><properties><name>first_name</name><type>SYSTEM</type><value>Ann</value></properties><owner_key>x</owner_key></contact>');
    expectRefused(unknown, 400);
    expect(unknown.body.error.message).toContain('owner_key');
    const twice = await xml(ann, 'post', '/dev/api/contacts', '<contact><properties><name>first_name</name><type>SYSTEM</type><value>Ann</value></properties><star_value>1</star_value><star_value>2</star_value></contact>');
    expectError(twice, 400, 'validation_failed', ['star_value']);
  });

  it('malformed XML is a 400 naming the problem and where', async () => {
    const before = await stored();
    const res = await xml(ann, 'post', '/dev/api/contacts', '<contact><tags>a</contact>');
    expectError(res, 400, 'invalid_body');
    expect(res.body.error.message).toMatch(/Malformed XML body: .*closing tag.*line 1/);
    const two = await xml(ann, 'post', '/dev/api/contacts', '<contact/><contact/>');
    expectError(two, 400, 'invalid_body');
    expect(await stored()).toEqual(before);
  });

  it('refuse every DOCTYPE: no external entity is read (XXE), no entity expands (billion laughs)', async () => {
    const before = await stored();
    const xxe = '<?xml version="1.0"?><!DOCTYPE contact [<!ENTITY x SYSTEM "file:///etc/passwd">]><contact><properties><name>first_name</name><type>SYSTEM</type><value>&x;</value></properties></contact>';
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>' +
      '<contact><properties><name>first_name</name><type>SYSTEM</type><value>&lol3;</value></properties></contact>';
    for (const body of [xxe, laughs]) {
      const res = await xml(ann, 'post', '/dev/api/contacts', body);
      expectError(res, 400, 'invalid_body');
      expect(res.body.error.message).toContain('DOCTYPE');
      expect(JSON.stringify(res.body)).not.toContain('root:');
    }
    expect(await stored()).toEqual(before);
  });

  it('bound the nesting depth and the size (413 over 1 MB), writing nothing', async () => {
    const before = await stored();
    const deep = `<contact><domainUser>${'<a>'.repeat(40)}x${'</a>'.repeat(40)}</domainUser></contact>`;
    const tooDeep = await xml(ann, 'post', '/dev/api/contacts', deep);
    expectError(tooDeep, 400, 'invalid_body');
    const huge = `<contact><widget_properties>${'A'.repeat(1_100_000)}</widget_properties></contact>`;
    const tooBig = await xml(ann, 'post', '/dev/api/contacts', huge);
    expectRefused(tooBig, 413, 'payload_too_large');
    expect(await stored()).toEqual(before);
  });

  it('an XML deal (<opportunity>) answers as <opportunity>; the root name of a request is not checked', async () => {
    const track = (await ctx.as(ann).get('/dev/api/milestone/pipelines')).body[0];
    const body = `<deal><name>Renewal</name><expected_value>500</expected_value><pipeline_id>${track.id}</pipeline_id><milestone>Open</milestone><close_date>1800000000</close_date><owner_id>${ann.id}</owner_id></deal>`;
    const res = await xml(ann, 'post', '/dev/api/opportunity', body).set('Accept', 'application/xml');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^<\?xml[^>]*\?><opportunity><id>\d+<\/id><name>Renewal<\/name>/);
    const byMilestone = await ctx.as(ann).get('/dev/api/opportunity/byMilestone').set('Accept', 'application/xml');
    expect(byMilestone.text).toMatch(/<milestone><name>Open<\/name><opportunity><id>\d+<\/id><name>Renewal<\/name>/);
  });
});

describe('Accept on bodiless answers', () => {
  it('DELETE with Accept: text/plain deletes (204) on every resource, while a GET with it is still 406', async () => {
    const contact = await ctx.as(ann).post('/dev/api/contacts').send(person('Ann'));
    const task = await ctx.as(ann).post('/dev/api/tasks').send({ subject: 'Call', type: 'CALL', priority_type: 'HIGH', due: 1800000000 });
    const event = await ctx.as(ann).post('/dev/api/events').send({ title: 'Demo', start: 1800000000, end: 1800003600 });
    for (const path of [`/dev/api/tasks/${task.body.id}`, `/dev/api/events/${event.body.id}`, `/dev/api/contacts/${contact.body.id}`]) {
      const res = await ctx.as(ann).delete(path).set('Accept', 'text/plain');
      expect({ path, status: res.status }).toEqual({ path, status: 204 });
    }
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(0);
    const get = await ctx.as(ann).get('/dev/api/contacts').set('Accept', 'text/plain');
    expectError(get, 406, 'not_acceptable');
  });

  it('tag calls (204) ignore Accept too', async () => {
    await ctx.as(ann).post('/dev/api/contacts').send(person('Ann', 'ann@x.test'));
    const res = await ctx.as(ann).post('/dev/api/contacts/email/tags/add').set('Accept', 'text/plain').type('form').send({ email: 'ann@x.test', tags: '["VIP"]' });
    expect(res.status).toBe(204);
  });
});

describe('the OpenAPI document states the XML shapes', () => {
  it('response roots and items, and XML request bodies with their root names', async () => {
    const doc = (await ctx.as(ann).get('/openapi.json')).body;
    const xmlOf = (path: string, method: string, status = '200') => doc.paths[path][method].responses[status].content['application/xml'].schema;
    expect(xmlOf('/dev/api/opportunity', 'get')).toMatchObject({ type: 'array', xml: { name: 'collection', wrapped: true }, items: { xml: { name: 'opportunity' } } });
    expect(xmlOf('/dev/api/opportunity/{id}', 'get').xml).toEqual({ name: 'opportunity' });
    expect(xmlOf('/dev/api/contacts', 'get')).toMatchObject({ xml: { name: 'contacts', wrapped: true }, items: { xml: { name: 'contact' } } });
    expect(xmlOf('/dev/api/contacts/{contact_id}/notes', 'get')).toMatchObject({ xml: { name: 'collection' }, items: { xml: { name: 'note' } } });
    const create = doc.paths['/dev/api/contacts'].post.requestBody.content;
    expect(Object.keys(create)).toEqual(['application/json', 'application/xml', 'text/xml']);
    expect(create['application/xml'].schema.xml).toEqual({ name: 'contact' });
    expect(doc.paths['/dev/api/opportunity'].post.requestBody.content['application/xml'].schema.xml).toEqual({ name: 'opportunity' });
    expect(doc.paths['/dev/api/contacts/add/property'].post.requestBody.content['text/xml'].schema.xml).toEqual({ name: 'contactField' });
    expect(Object.keys(doc.paths['/dev/api/contacts/email/tags/add'].post.requestBody.content)).toEqual(['application/x-www-form-urlencoded', 'application/json', 'application/xml', 'text/xml']);
  });
});

describe('GET /dev/api', () => {
  it('answers the calling user for valid credentials, 401 without', async () => {
    const res = await ctx.as(ann).get('/dev/api');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ann.id, email: 'ann@acme.test', domain: 'acme', password: '**********' });
    const anonymous = await ctx.as({ ...ann, auth: '' }).get('/dev/api');
    expect(anonymous.status).toBe(401);
  });
});
