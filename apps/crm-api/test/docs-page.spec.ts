import { browseDocsPage } from '@lib/testing';
import { setupCrmApp } from './setup-app';

const ctx = setupCrmApp();

it('GET /docs renders every documented operation in a browser and loads nothing from another origin', async () => {
  const view = await browseDocsPage(ctx.app);
  expect(view.operations).toEqual(expect.arrayContaining(['GET /dev/api/contacts', 'POST /dev/api/opportunity']));
  expect([...view.operations].sort()).toEqual([...view.documented].sort());
  expect(view.foreignRequests).toEqual([]);
  expect(view.consoleErrors).toEqual([]);
}, 120_000);
