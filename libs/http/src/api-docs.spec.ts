import { defineRoute } from '@lib/routing';
import { z } from '@lib/validation';
import request from 'supertest';
import { DOCS_ASSETS, DOCS_CSP } from './api-docs';
import { buildServiceApp } from './build-app';
import { testAppOptions } from './test-app.fixture';
import { createLifecycle } from './lifecycle';

const lifecycle = createLifecycle();
const app = buildServiceApp(testAppOptions({
  routes: [
    defineRoute({
      method: 'get',
      path: '/items',
      auth: 'public',
      summary: 'List the items',
      responses: { 200: { description: 'The items', schema: z.array(z.number()) } },
      handler: () => ({ status: 200, body: [1] }),
    }),
  ],
  openapi: { title: 'Items <&> API', version: '1.0.0' },
  lifecycle,
}));

const assetUrls = (html: string) => [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);

describe('GET /docs', () => {
  it('answers a page titled after the service, under a self-only CSP, loading only its own assets', async () => {
    const res = await request(app).get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(DOCS_CSP);
    expect(DOCS_CSP).not.toMatch(/https?:|\*|unsafe/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toContain('<title>Items &#60;&#38;&#62; API — API docs</title>');
    const urls = assetUrls(res.text);
    expect(urls.length).toBe(4);
    for (const url of urls) expect(url.startsWith(`${DOCS_ASSETS}/`)).toBe(true);
  });

  it('serves every asset the page names with long-lived caching and its type', async () => {
    const page = await request(app).get('/docs');
    const types: Record<string, RegExp> = { js: /javascript/, css: /text\/css/, png: /image\/png/ };
    for (const url of assetUrls(page.text)) {
      const res = await request(app).get(url);
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
      expect(res.headers['content-type']).toMatch(types[url.split('.').pop() as string]);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const init = await request(app).get(assetUrls(page.text).find((url) => /init-/.test(url)) as string);
    expect(init.text).toContain("url: '/openapi.json'");
    expect(init.text).toContain('validatorUrl: null');
  });

  it('answers 404 in the service error shape for any other file under /docs, the package files included', async () => {
    for (const path of [`${DOCS_ASSETS}/index.html`, `${DOCS_ASSETS}/package.json`, `${DOCS_ASSETS}/..%2f..%2fpackage.json`, '/docs/assets/0.0.0/swagger-ui.css', '/docs/nope']) {
      const res = await request(app).get(path);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: { error: { code: 'not_found' } } });
    }
  });

  it('is served while the service is still starting (it needs no database)', async () => {
    const starting = { ...createLifecycle(), starting: true };
    const notReady = buildServiceApp(testAppOptions({ routes: [], openapi: { title: 'Starting', version: '1.0.0' }, isReady: async () => false, lifecycle: starting }));
    expect((await request(notReady).get('/docs')).status).toBe(200);
  });
});
