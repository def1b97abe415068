import { create as parseXml } from 'xmlbuilder2';
import { company, person, setupCrmApp, type TestUser } from './setup-app';
import { expectError, storedState } from './expectations';
import { nowSeconds } from '../src/input/epoch';

/** C3 (POST /dev/api/contacts) and every field rule of the contact resource. */
const ctx = setupCrmApp();
const stored = () => storedState(ctx.connection);


const userView = (user: TestUser, domain: string) => ({
  id: user.id,
  domain,
  email: user.email,
  is_admin: false,
  is_account_owner: false,
  is_disabled: false,
  name: '',
  password: '**********',
  info_json_string: expect.any(String),
  hashedString: expect.any(String),
});

const sys = (name: string, value?: string, subtype?: string) => ({ type: 'SYSTEM', name, ...(subtype !== undefined && { subtype }), ...(value !== undefined && { value }) });
const custom = (name: string, value?: string, subtype?: string) => ({ type: 'CUSTOM', name, ...(subtype !== undefined && { subtype }), ...(value !== undefined && { value }) });
const address = (value: string, subtype = 'home') => sys('address', value, subtype);

let ann: TestUser;

/** The answer to ann creating a contact of `type` with `properties` and every other field left to its default. */
const createdView = (type: 'PERSON' | 'COMPANY', properties: unknown[]) => ({
  id: expect.any(Number),
  type,
  tags: [],
  lead_score: 0,
  star_value: 0,
  properties,
  campaignStatus: [],
  unsubscribeStatus: [],
  emailBounceStatus: [],
  created_time: expect.any(Number),
  updated_time: expect.any(Number),
  tags_with_time_json: '{}',
  domainUser: userView(ann, 'acme'),
});

beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
});

describe('C3: a person with defaults', () => {
  it('answers the created person with every default, and stores exactly that', async () => {
    const before = nowSeconds();
    const res = await ctx.as(ann).post('/dev/api/contacts').send(person('Ann', 'ann@x.test'));
    const after = nowSeconds();

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(createdView('PERSON', [sys('first_name', 'Ann'), sys('email', 'ann@x.test', 'work')]));
    const body = res.body;
    expect(Number.isInteger(body.id) && body.id > 0).toBe(true);
    expect(body.created_time).toBeGreaterThanOrEqual(before);
    expect(body.created_time).toBeLessThanOrEqual(after);
    expect(body.updated_time).toBe(body.created_time);
    expect(JSON.parse(body.domainUser.info_json_string)).toEqual({ logged_in_time: expect.any(Number), created_time: expect.any(Number) });

    expect(await ctx.Contact.findById(body.id).lean()).toEqual({
      _id: body.id,
      account: ann.account,
      owner: ann.id,
      type: 'PERSON',
      tag_times: {},
      tag_count: 0,
      lead_score: 0,
      star_value: 0,
      contact_company_id: null,
      properties: [sys('first_name', 'Ann'), sys('email', 'ann@x.test', 'work')],
      emails: ['ann@x.test'],
      campaignStatus: [],
      unsubscribeStatus: [],
      emailBounceStatus: [],
      widget_properties: null,
      created_time: body.created_time,
      updated_time: body.created_time,
      rev: 0,
      insert_token: expect.any(String),
    });
    expect(await ctx.EmailClaim.findById(`${ann.account}:ann@x.test`).lean()).toMatchObject({ contact: body.id });
    expect((await ctx.Account.findById(ann.account).lean())!.contact_count).toBe(1);
  });

  it('never shows the API key or its hash; the password is masked', async () => {
    const res = await ctx.as(ann).post('/dev/api/contacts').send(person('Ann'));
    expect(res.status).toBe(200);
    const stored = await ctx.connection.collection('domain_users').findOne({ email: ann.email });
    expect(typeof stored!.api_key_hash).toBe('string');
    expect(res.text).not.toContain(stored!.api_key_hash);
    expect(res.text).not.toContain(ann.apiKey);
    expect(res.text).not.toContain('api_key');
    expect(res.body.domainUser.password).toBe('**********');
  });

  it('makes the calling user the owner (domainUser), not the account owner', async () => {
    const bob = await ctx.user('acme', 'bob@acme.test');
    const res = await ctx.as(bob).post('/dev/api/contacts').send(person('Carl'));
    expect(res.status).toBe(200);
    expect(res.body.domainUser).toEqual(userView(bob, 'acme'));
    expect((await ctx.Contact.findById(res.body.id).lean())!.owner).toBe(bob.id);
  });

  it('keeps every field sent, and stores tags with their time in epoch ms', async () => {
    const beforeMs = Date.now();
    const res = await ctx
      .as(ann)
      .post('/dev/api/contacts')
      .send(
        person('Ann', 'ann@x.test', {
          type: 'PERSON',
          tags: ['Lead', 'Q3 2026', 'big_fish', 'A1'],
          lead_score: 42,
          star_value: 5,
          widget_properties: '{"w":1}',
        }),
      );
    const afterMs = Date.now();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'PERSON', tags: ['Lead', 'Q3 2026', 'big_fish', 'A1'], lead_score: 42, star_value: 5, widget_properties: '{"w":1}' });
    const times = JSON.parse(res.body.tags_with_time_json);
    expect(Object.keys(times)).toEqual(['Lead', 'Q3 2026', 'big_fish', 'A1']);
    for (const time of Object.values(times)) {
      expect(time).toBeGreaterThanOrEqual(beforeMs);
      expect(time).toBeLessThanOrEqual(afterMs);
    }
    const doc = await ctx.Contact.findById(res.body.id).lean();
    expect(doc!.tag_times).toEqual(times);
    expect(doc).toMatchObject({ lead_score: 42, star_value: 5, widget_properties: '{"w":1}' });
  });

  it('answers distinct, increasing ids', async () => {
    const first = await ctx.as(ann).post('/dev/api/contacts').send(person('A'));
    const second = await ctx.as(ann).post('/dev/api/contacts').send(person('B'));
    expect(second.body.id).toBeGreaterThan(first.body.id);
  });
});

describe('C3: companies', () => {
  it('creates a company named by its name property', async () => {
    const res = await ctx.as(ann).post('/dev/api/contacts').send(company('Acme Ltd'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(createdView('COMPANY', [sys('name', 'Acme Ltd')]));
    expect(await ctx.Contact.findById(res.body.id).lean()).toMatchObject({ type: 'COMPANY', account: ann.account, properties: [sys('name', 'Acme Ltd')], contact_company_id: null });
    expect((await ctx.Account.findById(ann.account).lean())!.contact_count).toBe(1);
  });

  it('accepts the zero values and an empty tag list on a company', async () => {
    const res = await ctx.as(ann).post('/dev/api/contacts').send(company('Acme', { tags: [], lead_score: 0, star_value: 0, contact_company_id: null }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'COMPANY', tags: [], lead_score: 0, star_value: 0 });
  });

  it('links a person to a company of the same account, sent as a number or a digit string', async () => {
    const acme = (await ctx.as(ann).post('/dev/api/contacts').send(company('Acme'))).body;
    const asNumber = await ctx.as(ann).post('/dev/api/contacts').send(person('Ann', undefined, { contact_company_id: acme.id }));
    const asString = await ctx.as(ann).post('/dev/api/contacts').send(person('Bob', undefined, { contact_company_id: String(acme.id) }));
    for (const res of [asNumber, asString]) {
      expect(res.status).toBe(200);
      expect(res.body.contact_company_id).toBe(acme.id);
      expect((await ctx.Contact.findById(res.body.id).lean())!.contact_company_id).toBe(acme.id);
    }
  });
});

describe('C3: the field rules (each refusal is a 400 naming the field, and writes nothing)', () => {
  const refusals: [string, object, string[]][] = [
    ['type in lower case', person('A', undefined, { type: 'person' }), ['type']],
    ['type company in lower case', { type: 'company', properties: [sys('name', 'Acme')] }, ['type']],
    ['type Person', person('A', undefined, { type: 'Person' }), ['type']],
    ['an unknown type', person('A', undefined, { type: 'LEAD' }), ['type']],
    ['a tag starting with a digit', person('A', undefined, { tags: ['1abc'] }), ['tags.0']],
    ['a tag with a hyphen', person('A', undefined, { tags: ['a-b'] }), ['tags.0']],
    ['a tag with a dot', person('A', undefined, { tags: ['ok', 'a.b'] }), ['tags.1']],
    ['an empty tag', person('A', undefined, { tags: [''] }), ['tags.0']],
    ['a tag starting with an underscore', person('A', undefined, { tags: ['_a'] }), ['tags.0']],
    ['a tag starting with a space', person('A', undefined, { tags: [' a'] }), ['tags.0']],
    ['a tag that is not a string', person('A', undefined, { tags: [5] }), ['tags.0']],
    ['tags that are not a list', person('A', undefined, { tags: 'VIP' }), ['tags']],
    ['tags on a company', company('Acme', { tags: ['VIP'] }), ['tags']],
    ['a lead score on a company', company('Acme', { lead_score: 5 }), ['lead_score']],
    ['a star value on a company', company('Acme', { star_value: 3 }), ['star_value']],
    ['a company id on a company', company('Acme', { contact_company_id: 1 }), ['contact_company_id']],
    ['star_value 6', person('A', undefined, { star_value: 6 }), ['star_value']],
    ['star_value -1', person('A', undefined, { star_value: -1 }), ['star_value']],
    ['star_value 2.5', person('A', undefined, { star_value: 2.5 }), ['star_value']],
    ['star_value as text', person('A', undefined, { star_value: 'three' }), ['star_value']],
    ['a negative lead_score', person('A', undefined, { lead_score: -1 }), ['lead_score']],
    ['a fractional lead_score', person('A', undefined, { lead_score: 1.5 }), ['lead_score']],
    ['a person without properties', {}, ['properties']],
    ['a person with an empty property list', { properties: [] }, ['properties']],
    ['a person without first_name', { properties: [sys('last_name', 'Smith'), sys('email', 'a@x.test', 'work')] }, ['properties']],
    ['an empty first_name', { properties: [sys('first_name', '')] }, ['properties']],
    ['a blank first_name', { properties: [sys('first_name', '   ')] }, ['properties']],
    ['a first_name without value', { properties: [sys('first_name')] }, ['properties']],
    ['a company without name', { type: 'COMPANY', properties: [sys('first_name', 'Acme')] }, ['properties']],
    ['a company with an empty name', { type: 'COMPANY', properties: [sys('name', '')] }, ['properties']],
    ['property type in lower case', { properties: [{ type: 'system', name: 'first_name', value: 'A' }] }, ['properties.0.type']],
    ['property type Custom', { properties: [sys('first_name', 'A'), { type: 'Custom', name: 'x', value: 'y' }] }, ['properties.1.type']],
    ['a property without type', { properties: [sys('first_name', 'A'), { name: 'x', value: 'y' }] }, ['properties.1.type']],
    ['a property without name', { properties: [sys('first_name', 'A'), { type: 'CUSTOM', value: 'y' }] }, ['properties.1.name']],
    ['an unknown property field', { properties: [{ ...sys('first_name', 'A'), label: 'x' }] }, ['properties.0.label']],
    ['email subtype Work', { properties: [sys('first_name', 'A'), sys('email', 'a@x.test', 'Work')] }, ['properties.1.subtype']],
    ['email subtype home', { properties: [sys('first_name', 'A'), sys('email', 'a@x.test', 'home')] }, ['properties.1.subtype']],
    ['phone subtype fax', { properties: [sys('first_name', 'A'), sys('phone', '1', 'fax')] }, ['properties.1.subtype']],
    ['phone subtype Home Fax', { properties: [sys('first_name', 'A'), sys('phone', '1', 'Home Fax')] }, ['properties.1.subtype']],
    ['address subtype work', { properties: [sys('first_name', 'A'), address('{}', 'work')] }, ['properties.1.subtype']],
    ['website subtype url', { properties: [sys('first_name', 'A'), sys('website', 'x', 'url')] }, ['properties.1.subtype']],
    ['first_name with a subtype', { properties: [sys('first_name', 'A', 'work')] }, ['properties.0.subtype']],
    ['last_name with a subtype', { properties: [sys('first_name', 'A'), sys('last_name', 'B', 'home')] }, ['properties.1.subtype']],
    ['a custom property with a random subtype', { properties: [sys('first_name', 'A'), custom('Backup', 'x', 'random')] }, ['properties.1.subtype']],
    ['a custom property with a subtype in the wrong case', { properties: [sys('first_name', 'A'), custom('Backup', 'x', 'WORK')] }, ['properties.1.subtype']],
    ['an address that is not JSON', { properties: [sys('first_name', 'A'), address('12 Main St')] }, ['properties.1.value']],
    ['an address that is a JSON array', { properties: [sys('first_name', 'A'), address('["12 Main St"]')] }, ['properties.1.value']],
    ['an address that is a JSON string', { properties: [sys('first_name', 'A'), address('"12 Main St"')] }, ['properties.1.value']],
    ['an address that is JSON null', { properties: [sys('first_name', 'A'), address('null')] }, ['properties.1.value']],
    ['an address with an unknown key', { properties: [sys('first_name', 'A'), address('{"city":"Perth","street":"Main"}')] }, ['properties.1.value']],
    ['an address key in another case', { properties: [sys('first_name', 'A'), address('{"City":"Perth"}')] }, ['properties.1.value']],
    ['an address with a number value', { properties: [sys('first_name', 'A'), address('{"zip":6000}')] }, ['properties.1.value']],
    ['an address with a nested object', { properties: [sys('first_name', 'A'), address('{"address":{"line":"x"}}')] }, ['properties.1.value']],
    ['a malformed email', { properties: [sys('first_name', 'A'), sys('email', 'not-an-email', 'work')] }, ['properties.1.value']],
    ['an email without domain', { properties: [sys('first_name', 'A'), sys('email', 'ann@', 'work')] }, ['properties.1.value']],
    ['a property value that is a number', { properties: [sys('first_name', 'A'), { type: 'SYSTEM', name: 'phone', value: 5 }] }, ['properties.1.value']],
    ['an unknown top-level field', person('A', undefined, { nickname: 'x' }), ['nickname']],
    ['a field in another letter case (Tags)', person('A', undefined, { Tags: ['VIP'] }), ['Tags']],
    ['a field in another letter case (Star_value)', person('A', undefined, { Star_value: 1 }), ['Star_value']],
    ['an id', person('A', undefined, { id: 7 }), ['id']],
    ['a non-empty campaignStatus', person('A', undefined, { campaignStatus: [{ campaign_id: '1', status: '1-DONE' }] }), ['campaignStatus']],
    ['a non-empty unsubscribeStatus', person('A', undefined, { unsubscribeStatus: [{ campaign_id: '1', unsubscribeType: 'CURRENT' }] }), ['unsubscribeStatus']],
    ['a non-empty emailBounceStatus', person('A', undefined, { emailBounceStatus: [{ email: 'a@x.test', emailBounceType: 'HARD_BOUNCE' }] }), ['emailBounceStatus']],
    ['a company id that is text', person('A', undefined, { contact_company_id: 'abc' }), ['contact_company_id']],
    ['a company id of 0', person('A', undefined, { contact_company_id: 0 }), ['contact_company_id']],
    ['a company id that names no contact', person('A', undefined, { contact_company_id: 999999 }), ['contact_company_id']],
    ['a body that is a list', [person('A')], ['body']],
  ];

  it.each(refusals)('refuses %s', async (_label, body, fields) => {
    const before = await stored();
    const res = await ctx.as(ann).post('/dev/api/contacts').send(body);
    expectError(res, 400, 'validation_failed', fields);
    expect(await stored()).toEqual(before);
  });

  it('refuses a company id that names a person', async () => {
    const bob = (await ctx.as(ann).post('/dev/api/contacts').send(person('Bob'))).body;
    const before = await stored();
    const res = await ctx.as(ann).post('/dev/api/contacts').send(person('A', undefined, { contact_company_id: bob.id }));
    expectError(res, 400, 'validation_failed', ['contact_company_id']);
    expect(await stored()).toEqual(before);
  });

  it("refuses another account's company like a missing one", async () => {
    const zed = await ctx.user('other', 'zed@other.test');
    const theirs = (await ctx.as(zed).post('/dev/api/contacts').send(company('Other Inc'))).body;
    const before = await stored();
    const res = await ctx.as(ann).post('/dev/api/contacts').send(person('A', undefined, { contact_company_id: theirs.id }));
    expectError(res, 400, 'validation_failed', ['contact_company_id']);
    const missing = await ctx.as(ann).post('/dev/api/contacts').send(person('A', undefined, { contact_company_id: theirs.id + 1000 }));
    expect(res.body.error.message.replace(String(theirs.id), '#')).toBe(missing.body.error.message.replace(String(theirs.id + 1000), '#'));
    expect(await stored()).toEqual(before);
  });

  it('accepts every subtype of the spec table on its system property', async () => {
    const properties = [
      sys('first_name', 'Ann'),
      sys('email', 'ann@work.test', 'work'),
      sys('email', 'ann@home.test', 'personal'),
      ...['work', 'home', 'mobile', 'main', 'home fax', 'work fax', 'other'].map((subtype, i) => sys('phone', `+61 400 00${i}`, subtype)),
      ...['home', 'postal', 'office'].map((subtype) => address('{"address":"1 Main St","city":"Perth","state":"WA","zip":"6000","country":"AU"}', subtype)),
      ...['URL', 'SKYPE', 'TWITTER', 'LINKEDIN', 'FACEBOOK', 'XING', 'FEED', 'GOOGLE_PLUS', 'FLICKR', 'GITHUB', 'YOUTUBE'].map((subtype) => sys('website', `site-${subtype}`, subtype)),
    ];
    const res = await ctx.as(ann).post('/dev/api/contacts').send({ properties });
    expect(res.status).toBe(200);
    expect(res.body.properties).toEqual(properties);
    const doc = await ctx.Contact.findById(res.body.id).lean();
    expect(doc!.properties).toEqual(properties);
    expect(doc!.emails).toEqual(['ann@work.test', 'ann@home.test']);
  });

  it('accepts custom properties with or without a subtype from the lists, and system properties without subtype', async () => {
    const properties = [
      sys('first_name', 'Ann'),
      sys('last_name', 'Smith'),
      sys('title', 'CTO'),
      sys('company', 'Acme'),
      sys('email', 'ann@x.test'),
      sys('phone', '123'),
      custom('Backup email', 'b@x.test', 'personal'),
      custom('Fax', '5', 'home fax'),
      custom('Code', 'gh', 'GITHUB'),
      custom('Office', '{}', 'office'),
      custom('Birthday', '1990-01-01'),
      custom('Notes'),
    ];
    const res = await ctx.as(ann).post('/dev/api/contacts').send({ properties });
    expect(res.status).toBe(200);
    expect(res.body.properties).toEqual(properties);
  });

  it('accepts an address holding only some of the keys, and an empty address', async () => {
    const properties = [sys('first_name', 'Ann'), address('{"city":"Perth","country":"AU"}', 'office'), address('{}', 'postal')];
    const res = await ctx.as(ann).post('/dev/api/contacts').send({ properties });
    expect(res.status).toBe(200);
    expect(res.body.properties).toEqual(properties);
  });

  it('accepts the bounds of star_value and lead_score', async () => {
    const low = await ctx.as(ann).post('/dev/api/contacts').send(person('A', undefined, { star_value: 0, lead_score: 0 }));
    const high = await ctx.as(ann).post('/dev/api/contacts').send(person('B', undefined, { star_value: 5, lead_score: 1_000_000 }));
    expect([low.status, high.status]).toEqual([200, 200]);
    expect(low.body).toMatchObject({ star_value: 0, lead_score: 0 });
    expect(high.body).toMatchObject({ star_value: 5, lead_score: 1_000_000 });
  });

  it('accepts empty campaign lists on create', async () => {
    const res = await ctx.as(ann).post('/dev/api/contacts').send(person('A', undefined, { campaignStatus: [], unsubscribeStatus: [], emailBounceStatus: [] }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ campaignStatus: [], unsubscribeStatus: [], emailBounceStatus: [] });
  });
});

describe('C3: read-only fields', () => {
  it('ignores created_time, updated_time, tags_with_time_json, domainUser, count and cursor, and stores none of them', async () => {
    const bob = await ctx.user('acme', 'bob@acme.test');
    const before = nowSeconds();
    const res = await ctx
      .as(ann)
      .post('/dev/api/contacts')
      .send(
        person('Ann', undefined, {
          tags: ['VIP'],
          created_time: 1000,
          updated_time: 2000,
          tags_with_time_json: '{"VIP":5,"Other":6}',
          domainUser: { id: bob.id, email: bob.email },
          count: 99,
          cursor: 'abc',
        }),
      );
    expect(res.status).toBe(200);
    expect(res.body.created_time).toBeGreaterThanOrEqual(before);
    expect(res.body.updated_time).toBe(res.body.created_time);
    expect(res.body.domainUser).toEqual(userView(ann, 'acme'));
    expect(Object.keys(JSON.parse(res.body.tags_with_time_json))).toEqual(['VIP']);
    expect(JSON.parse(res.body.tags_with_time_json).VIP).toBeGreaterThan(1_000_000_000_000);
    expect(res.body).not.toHaveProperty('count');
    expect(res.body).not.toHaveProperty('cursor');

    const doc = await ctx.Contact.findById(res.body.id).lean();
    expect(doc!.owner).toBe(ann.id);
    expect(doc!.created_time).toBe(res.body.created_time);
    expect(Object.keys(doc!).sort()).toEqual(
      [
        '_id',
        'account',
        'owner',
        'type',
        'tag_times',
        'tag_count',
        'lead_score',
        'star_value',
        'contact_company_id',
        'properties',
        'emails',
        'campaignStatus',
        'unsubscribeStatus',
        'emailBounceStatus',
        'widget_properties',
        'created_time',
        'updated_time',
        'rev',
        'insert_token',
      ].sort(),
    );
  });
});

describe('C3: person emails are unique per account', () => {
  it('refuses a second person with the same email: 400 duplicate_email, nothing stored', async () => {
    const first = await ctx.as(ann).post('/dev/api/contacts').send(person('Ann', 'ann@x.test'));
    expect(first.status).toBe(200);
    const before = await stored();
    const res = await ctx.as(ann).post('/dev/api/contacts').send(person('Other', 'ann@x.test'));
    expectError(res, 400, 'duplicate_email', ['properties']);
    expect(res.body.error.message).toContain('ann@x.test');
    expect(await stored()).toEqual(before);
  });

  it('refuses a person whose second email is taken, and leaves its free email unclaimed', async () => {
    await ctx.as(ann).post('/dev/api/contacts').send(person('Ann', 'ann@x.test'));
    const before = await stored();
    const res = await ctx
      .as(ann)
      .post('/dev/api/contacts')
      .send({ properties: [sys('first_name', 'Bob'), sys('email', 'bob@x.test', 'work'), sys('email', 'ann@x.test', 'personal')] });
    expectError(res, 400, 'duplicate_email', ['properties']);
    expect(await stored()).toEqual(before);
    expect(await ctx.EmailClaim.findById(`${ann.account}:bob@x.test`)).toBeNull();
    expect((await ctx.as(ann).post('/dev/api/contacts').send(person('Bob', 'bob@x.test'))).status).toBe(200);
  });

  it('accepts one person listing the same email twice', async () => {
    const res = await ctx
      .as(ann)
      .post('/dev/api/contacts')
      .send({ properties: [sys('first_name', 'Ann'), sys('email', 'ann@x.test', 'work'), sys('email', 'ann@x.test', 'personal')] });
    expect(res.status).toBe(200);
    expect((await ctx.Contact.findById(res.body.id).lean())!.emails).toEqual(['ann@x.test']);
  });

  it('allows the same email in another account', async () => {
    const zed = await ctx.user('other', 'zed@other.test');
    const mine = await ctx.as(ann).post('/dev/api/contacts').send(person('Ann', 'shared@x.test'));
    const theirs = await ctx.as(zed).post('/dev/api/contacts').send(person('Ann', 'shared@x.test'));
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(await ctx.EmailClaim.countDocuments()).toBe(2);
  });

  it('lets a company share the email of a person, either way round', async () => {
    const p1 = await ctx.as(ann).post('/dev/api/contacts').send(person('Ann', 'info@acme.test'));
    const c1 = await ctx.as(ann).post('/dev/api/contacts').send(company('Acme', { properties: [sys('name', 'Acme'), sys('email', 'info@acme.test', 'work')] }));
    const c2 = await ctx.as(ann).post('/dev/api/contacts').send(company('Beta', { properties: [sys('name', 'Beta'), sys('email', 'sales@beta.test', 'work')] }));
    const p2 = await ctx.as(ann).post('/dev/api/contacts').send(person('Bea', 'sales@beta.test'));
    expect([p1.status, c1.status, c2.status, p2.status]).toEqual([200, 200, 200, 200]);
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(4);
  });

  it('treats emails that differ in letter case as different emails', async () => {
    const upper = await ctx.as(ann).post('/dev/api/contacts').send(person('Ann', 'A@x.test'));
    const lower = await ctx.as(ann).post('/dev/api/contacts').send(person('Ann', 'a@x.test'));
    expect([upper.status, lower.status]).toEqual([200, 200]);
    expect(upper.body.properties[1].value).toBe('A@x.test');
    expect(lower.body.properties[1].value).toBe('a@x.test');
    const again = await ctx.as(ann).post('/dev/api/contacts').send(person('Ann', 'A@x.test'));
    expectError(again, 400, 'duplicate_email', ['properties']);
  });

  it('lets exactly one of 50 concurrent creates with the same email through', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => ctx.as(ann).post('/dev/api/contacts').send(person(`P${i}`, 'race@x.test'))));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 200)) expectError(res, 400, 'duplicate_email', ['properties']);
    expect(await ctx.Contact.find().lean()).toEqual([expect.objectContaining({ _id: ok[0].body.id, emails: ['race@x.test'] })]);
    expect(await ctx.EmailClaim.find().lean()).toEqual([expect.objectContaining({ _id: `${ann.account}:race@x.test`, contact: ok[0].body.id })]);
    expect((await ctx.Account.findById(ann.account).lean())!.contact_count).toBe(1);
  });
});

describe('C3: transport', () => {
  it('answers 400 invalid_body for malformed JSON and writes nothing', async () => {
    const before = await stored();
    const res = await ctx.as(ann).post('/dev/api/contacts').set('Content-Type', 'application/json').send('{"properties": [');
    expectError(res, 400, 'invalid_body');
    expect(await stored()).toEqual(before);
  });

  it('answers 415 for a body that is not JSON (text, form) and writes nothing', async () => {
    const before = await stored();
    const text = await ctx.as(ann).post('/dev/api/contacts').set('Content-Type', 'text/plain').send('first_name=Ann');
    expectError(text, 415, 'unsupported_media_type');
    const form = await ctx.as(ann).post('/dev/api/contacts').type('form').send({ tags: '["VIP"]' });
    expectError(form, 415, 'unsupported_media_type');
    expect(await stored()).toEqual(before);
  });

  it('answers the created contact as XML when asked: root contact, repeated tags and properties', async () => {
    const res = await ctx
      .as(ann)
      .post('/dev/api/contacts')
      .set('Accept', 'application/xml')
      .send(person('Ann', 'ann@x.test', { tags: ['Lead', 'VIP'], star_value: 3 }));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><contact><id>\d+<\/id><type>PERSON<\/type><tags>Lead<\/tags><tags>VIP<\/tags>/);
    const xml = parseXml(res.text).end({ format: 'object' }) as unknown as { contact: Record<string, unknown> };
    expect(Object.keys(xml)).toEqual(['contact']);
    expect(xml.contact).toMatchObject({
      id: String((await ctx.Contact.findOne().lean())!._id),
      type: 'PERSON',
      tags: ['Lead', 'VIP'],
      star_value: '3',
      lead_score: '0',
      properties: [
        { type: 'SYSTEM', name: 'first_name', value: 'Ann' },
        { type: 'SYSTEM', name: 'email', subtype: 'work', value: 'ann@x.test' },
      ],
      domainUser: expect.objectContaining({ email: ann.email, password: '**********' }),
    });
    expect(res.text).not.toContain('<count>');
  });

  it('answers a refusal as XML when XML was asked for', async () => {
    const res = await ctx.as(ann).post('/dev/api/contacts').set('Accept', 'application/xml').send(person('A', undefined, { star_value: 9 }));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.text).toMatch(/<error><status>400<\/status><code>validation_failed<\/code><message>[^<]*star_value[^<]*<\/message>/);
    expect(await ctx.Contact.countDocuments()).toBe(0);
  });
});
