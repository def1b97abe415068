import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchChromium, listenLoopback } from '@lib/testing';
import request from 'supertest';
import { expectError, storedState } from './expectations';
import { person, setupCrmApp, type TestUser } from './setup-app';

/**
 * A page the user visits must not act with the Basic credentials the browser holds for the CRM:
 * every write a browser sends from another site or origin is refused (403 cross_site_request)
 * before authentication, in JSON or XML like every CRM error, and nothing is written.
 */
const ctx = setupCrmApp();

let ann: TestUser;
let bob: number;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  bob = (await ctx.as(ann).post('/dev/api/contacts').send(person('Bob', 'bob@acme.test'))).body.id;
});

const FOREIGN: Array<[string, Record<string, string>]> = [
  ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' }],
  ['Sec-Fetch-Site: same-site', { 'Sec-Fetch-Site': 'same-site', Origin: 'http://news.localhost:8080' }],
  ['a foreign Origin alone', { Origin: 'https://evil.example' }],
];

/** The writes a page would aim at: the bulk delete form, create, update and delete. */
const writes = () => [
  { what: 'POST bulk DELETE (a form)', send: () => ctx.as(ann).post('/dev/api/bulk/update?action_type=DELETE').type('form').send(`ids=[${bob}]`) },
  { what: 'POST /dev/api/contacts', send: () => ctx.as(ann).post('/dev/api/contacts').send(person('Eve', 'eve@acme.test')) },
  { what: 'PUT /dev/api/contacts', send: () => ctx.as(ann).put('/dev/api/contacts').send({ id: bob, ...person('Robert') }) },
  { what: 'DELETE /dev/api/contacts/{id}', send: () => ctx.as(ann).delete(`/dev/api/contacts/${bob}`) },
];

describe('a browser write from another site or origin, with valid credentials', () => {
  it.each(FOREIGN)('%s: 403 cross_site_request in JSON on every write, nothing written', async (_what, headers) => {
    const before = await storedState(ctx.connection);
    for (const write of writes()) {
      const res = await write.send().set(headers);
      expectError(res, 403, 'cross_site_request');
      expect(res.headers['www-authenticate']).toBeUndefined(); // no credential prompt either
    }
    expect(await storedState(ctx.connection)).toEqual(before);
  });

  it('answers in XML when XML is asked for, nothing written', async () => {
    const before = await storedState(ctx.connection);
    for (const write of writes()) {
      const res = await write.send().set('Accept', 'application/xml').set(FOREIGN[0][1]);
      expect([write.what, res.status, res.type]).toEqual([write.what, 403, 'application/xml']);
      expect(res.text).toMatch(/^<\?xml[^>]*\?><error><status>403<\/status><code>cross_site_request<\/code><message>[^<]+<\/message><\/error>$/);
    }
    expect(await storedState(ctx.connection)).toEqual(before);
  });

  it('is refused before authentication: wrong credentials get the 403 too, not a 401 challenge', async () => {
    const res = await request(ctx.app).post('/dev/api/contacts').set('Accept', 'application/json').set(FOREIGN[0][1]).send(person('Eve'));
    expectError(res, 403, 'cross_site_request');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });
});

describe('what still passes', () => {
  it.each([
    ['no browser headers (the official clients, curl)', {}],
    ['Sec-Fetch-Site: same-origin', { 'Sec-Fetch-Site': 'same-origin' }],
    ['Sec-Fetch-Site: none', { 'Sec-Fetch-Site': 'none' }],
  ])('%s: writes work', async (_what, headers) => {
    const created = await ctx.as(ann).post('/dev/api/contacts').set(headers).send(person('Cy', 'cy@acme.test'));
    expect(created.status).toBe(200);
    expect(await ctx.Contact.findById(created.body.id).lean()).toMatchObject({ account: ann.account, emails: ['cy@acme.test'] });
    const deleted = await ctx.as(ann).post('/dev/api/bulk/update?action_type=DELETE').set(headers).type('form').send(`ids=[${bob}]`);
    expect(deleted.status).toBe(204);
    expect(await ctx.Contact.findById(bob).lean()).toBeNull();
  });

  it('its own origin: directly, and through the gateway or the ingress (Host passed on, TLS ended before the app)', async () => {
    const own = [
      { Host: 'localhost:3001', Origin: 'http://localhost:3001' },
      { Host: 'crm.localhost:8080', Origin: 'http://crm.localhost:8080', 'Sec-Fetch-Site': 'same-origin' },
      { Host: 'crm.example.com', Origin: 'https://crm.example.com', 'X-Forwarded-Proto': 'https' },
    ];
    for (const headers of own) {
      const res = await ctx.as(ann).post('/dev/api/contacts').set(headers).send(person('Di'));
      expect([headers.Origin, res.status]).toEqual([headers.Origin, 200]);
    }
    expect(await ctx.Contact.countDocuments({ account: ann.account })).toBe(1 + own.length);
  });

  it('reads are not affected, whatever a browser says', async () => {
    const res = await ctx.as(ann).get(`/dev/api/contacts/${bob}`).set(FOREIGN[0][1]);
    expect([res.status, res.body.id]).toEqual([200, bob]);
  });
});

describe('in a real browser holding the credentials the user typed (chromium)', () => {
  /** A page of another site that posts the bulk delete form to the CRM as soon as it loads. */
  function attackerPage(target: string): Server {
    return createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<form method="POST" action="${target}"><input name="ids" value="[${bob}]"></form><script>document.forms[0].submit()</script>`);
    });
  }

  it('a page of another site cannot delete a contact with them; the CRM\'s own page (/docs) can write, and a same-origin post uses them', async () => {
    const crm = await listenLoopback(ctx.app);
    const origin = `http://127.0.0.1:${crm.port}`;
    const bulkDelete = `${origin}/dev/api/bulk/update?action_type=DELETE`;
    const attacker = attackerPage(bulkDelete);
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const browser = await launchChromium();
    try {
      // what the browser keeps after the user answered the Basic prompt once: sent to the CRM on its 401
      const context = await browser.newContext({ httpCredentials: { username: ann.email, password: ann.apiKey } });
      const page = await context.newPage();

      // `localhost` is another site than `127.0.0.1`
      const answer = page.waitForResponse((res) => res.url() === bulkDelete);
      await page.goto(`http://localhost:${(attacker.address() as AddressInfo).port}/`);
      expect((await answer).status()).toBe(403);
      expect(await ctx.Contact.findById(bob).lean()).not.toBeNull();

      // the API docs page, same origin: Swagger UI's writes are fetches like this one
      await page.goto(`${origin}/docs`);
      const created = await page.evaluate(async (auth) => {
        const res = await fetch('/dev/api/contacts', { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ properties: [{ type: 'SYSTEM', name: 'first_name', value: 'Fay' }] }) });
        return { status: res.status, id: ((await res.json()) as { id: number }).id };
      }, ann.auth);
      expect(created.status).toBe(200);
      expect(await ctx.Contact.findById(created.id).lean()).toMatchObject({ account: ann.account });

      // the same form body, posted from the CRM's own origin without credentials: the browser answers
      // the 401 with the ones it holds, so the refusal above is what stopped the page of the other site
      const deleted = await page.evaluate(async ([url, ids]) => (await fetch(url, { method: 'POST', body: new URLSearchParams({ ids }) })).status, [bulkDelete, `[${bob}]`]);
      expect(deleted).toBe(204);
      expect(await ctx.Contact.findById(bob).lean()).toBeNull();
    } finally {
      await browser.close();
      attacker.close();
      await crm.close();
    }
  }, 120_000);
});
