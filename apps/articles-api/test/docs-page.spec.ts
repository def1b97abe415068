import { browseDocsPage } from '@lib/testing';
import { setupArticlesApp } from './setup-app';

const ctx = setupArticlesApp();

it('GET /docs renders every documented operation in a browser and loads nothing from another origin', async () => {
  const view = await browseDocsPage(ctx.app);
  expect(view.operations).toEqual(expect.arrayContaining(['GET /articles', 'POST /articles']));
  expect([...view.operations].sort()).toEqual([...view.documented].sort());
  expect(view.foreignRequests).toEqual([]);
  expect(view.consoleErrors).toEqual([]);
}, 120_000);
