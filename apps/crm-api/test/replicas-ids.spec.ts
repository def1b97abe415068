import { useReplicas } from '@lib/testing';
import { crmData } from '../src/wiring';
import { contactModel } from '../src/contacts/contact.model';
import { person } from './setup-app';

// Three crm-api processes on one database: ids made at once on all of them never collide.
const replicas = useReplicas({ entry: 'apps/crm-api/src/main.ts', replicas: 3 });

it('90 creates at once over three replicas by two accounts: 90 distinct ids, all stored, each account pages through its own in order', async () => {
  const accounts = crmData(replicas.db.connection).accounts;
  const users = await Promise.all(['acme', 'rival'].map(async (domain) => ({ email: `ann@${domain}.test`, ...(await accounts.addUser({ domain, email: `ann@${domain}.test` })) })));
  const answers = await Promise.all(
    Array.from({ length: 90 }, (_, i) => {
      const user = users[i % 2];
      return replicas
        .replica(i % 3)
        .post('/dev/api/contacts')
        .auth(user.email, user.apiKey)
        .set('Accept', 'application/json')
        .send(person(`P${i}`));
    }),
  );
  expect(answers.map((res) => res.status)).toEqual(Array(90).fill(200));
  const ids = answers.map((res) => res.body.id as number);
  expect(new Set(ids).size).toBe(90);
  expect(ids.every(Number.isSafeInteger)).toBe(true);

  const Contact = contactModel(replicas.db.connection);
  for (const [n, user] of users.entries()) {
    expect(await Contact.countDocuments({ account: user.user.account })).toBe(45);
    const listed: number[] = [];
    let cursor: string | undefined;
    do {
      const res = await replicas
        .next()
        .get(`/dev/api/contacts?page_size=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        .auth(user.email, user.apiKey)
        .set('Accept', 'application/json');
      expect(res.status).toBe(200);
      listed.push(...res.body.map((c: { id: number }) => c.id));
      cursor = res.body.at(-1).cursor;
    } while (cursor);
    expect([...listed].sort((a, b) => a - b)).toEqual(ids.filter((_, i) => i % 2 === n).sort((a, b) => a - b));
    // creation order: created_time, then id
    const stored = await Contact.find({ account: user.user.account }).sort({ created_time: 1, _id: 1 }).lean();
    expect(listed).toEqual(stored.map((c) => c._id));
  }
}, 60_000);
