import { browseDocsPage } from '@lib/testing';
import { setupUsersApp } from './setup-app';

const ctx = setupUsersApp();

it('GET /docs renders every documented operation in a browser and loads nothing from another origin', async () => {
  const view = await browseDocsPage(ctx.app);
  expect(view.operations).toEqual(expect.arrayContaining(['GET /users', 'POST /users']));
  expect([...view.operations].sort()).toEqual([...view.documented].sort());
  expect(view.foreignRequests).toEqual([]);
  expect(view.consoleErrors).toEqual([]);
}, 120_000);
