import type { Seeded } from './endpoints';

/** The account owner `npm start` and the apps create by default (CRM_ADMIN_EMAIL / CRM_ADMIN_API_KEY). */
const CRM_USER = 'admin@example.com';
const CRM_KEY = 'dev-api-key';

async function post(url: string, headers: Record<string, string>, body?: string): Promise<Response> {
  const res = await fetch(url, { method: 'POST', headers, body });
  if (!res.ok) throw new Error(`seeding ${url} answered ${res.status}: ${await res.text()}`);
  return res;
}

/** Runs `task(i)` for i in 0…count-1, `parallel` at a time. */
async function times(count: number, parallel: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < count) await task(next++);
  }));
}

/** Stores `count` records in each service through its own API, as a client would. */
export async function seed(ports: { crm: number; articles: number; users: number }, count: number): Promise<Seeded> {
  const crmAuth = `Basic ${Buffer.from(`${CRM_USER}:${CRM_KEY}`).toString('base64')}`;
  const crmHeaders = { Authorization: crmAuth, 'Content-Type': 'application/json', Accept: 'application/json' };
  let contactId = 0;
  await times(count, 8, async (i) => {
    const person = {
      tags: ['Seed'],
      properties: [
        { type: 'SYSTEM', name: 'first_name', value: `Seed${i}` },
        { type: 'SYSTEM', name: 'last_name', value: 'Person' },
        { type: 'SYSTEM', name: 'email', subtype: 'work', value: `seed${i}@bench.test` },
      ],
    };
    const res = await post(`http://127.0.0.1:${ports.crm}/dev/api/contacts`, crmHeaders, JSON.stringify(person));
    if (i === Math.floor(count / 2)) contactId = ((await res.json()) as { id: number }).id;
  });
  await times(count, 8, (i) =>
    post(`http://127.0.0.1:${ports.articles}/articles`, { 'Content-Type': 'application/json' }, JSON.stringify({ title: `Article ${i}`, content: `Body of article ${i}. `.repeat(20) })),
  );
  await times(count, 8, (i) => post(`http://127.0.0.1:${ports.users}/users?name=User${i}&age=${20 + (i % 50)}.5&city=Sydney`, {}));
  return { crmAuth, contactId, contactEmail: `seed${Math.floor(count / 2)}@bench.test` };
}
