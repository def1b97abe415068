import { logCommands, type CommandLog } from '@lib/testing';
import request from 'supertest';
import { setupUsersApp } from './setup-app';

const ctx = setupUsersApp({ monitorCommands: true });

let log: CommandLog;
beforeAll(() => {
  log = logCommands(ctx.connection);
});
afterAll(() => log.stop());

describe('database round trips per request (driver command monitoring)', () => {
  it('every page fetch is one keyset query with limit+1 and no skip, at any depth', async () => {
    await ctx.User.insertMany([1, 2, 3, 4, 5, 6, 7].map((i) => ({ _id: i, name: `U${i}`, age: 20 + i, city: 'Perth' })));
    let url: string | undefined = '/users?limit=2';
    const names: string[] = [];
    let pages = 0;
    while (url) {
      log.reset();
      const res = await request(ctx.app).get(url);
      expect(res.status).toBe(200);
      expect(log.commands).toHaveLength(1);
      const [find] = log.commands;
      expect(find).toMatchObject({ name: 'find', collection: 'users' });
      expect(find.command.limit).toBe(3);
      expect(find.command).not.toHaveProperty('skip');
      if (pages > 0) expect(find.command.filter).toEqual({ _id: { $gt: pages * 2 } });
      names.push(...res.body.data.map((u: { name: string }) => u.name));
      url = res.body.next_cursor ? `/users?limit=2&cursor=${encodeURIComponent(res.body.next_cursor)}` : undefined;
      pages++;
    }
    expect(pages).toBe(4);
    expect(names).toEqual(['U1', 'U2', 'U3', 'U4', 'U5', 'U6', 'U7']);
  });
});
