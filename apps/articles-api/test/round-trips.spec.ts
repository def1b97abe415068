import request from 'supertest';
import { logCommands, type CommandLog } from '@lib/testing';
import { DEFAULT_LIMIT } from '../src/articles/article.schemas';
import { setupArticlesApp } from './setup-app';

const ctx = setupArticlesApp({ monitorCommands: true });

let log: CommandLog;
beforeAll(() => {
  log = logCommands(ctx.connection);
});
afterAll(() => log.stop());

async function seed(count: number) {
  for (let i = 1; i <= count; i++) await request(ctx.app).post('/articles').send({ title: `title ${i}`, content: `content ${i}` }).expect(201);
}

describe('database round trips of GET /articles (driver command monitoring)', () => {
  it('a default page is the collection count (from its metadata) and one find of the page and the article beyond it', async () => {
    await seed(DEFAULT_LIMIT + 5);
    log.reset();
    const res = await request(ctx.app).get('/articles').expect(200);
    expect(res.body.data).toHaveLength(DEFAULT_LIMIT);
    expect(log.commands.map((c) => c.name).sort()).toEqual(['count', 'find']);
    expect(log.commands.find((c) => c.name === 'count')!.command.query).toBeUndefined();
    const find = log.commands.find((c) => c.name === 'find')!;
    expect(find.command).toMatchObject({ limit: DEFAULT_LIMIT + 1 });
  });

  it('a page of 200 reads in batches and still shows each article once', async () => {
    await seed(45);
    log.reset();
    const res = await request(ctx.app).get('/articles?limit=200').expect(200);
    expect(res.body.data.map((a: { id: number }) => a.id)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    const finds = log.commands.filter((c) => c.name === 'find');
    expect(finds.length).toBe(3);
    expect(finds.map((c) => c.command.limit)).toEqual([DEFAULT_LIMIT, DEFAULT_LIMIT, DEFAULT_LIMIT]);
  });
});
