import { existsSync } from 'node:fs';
import type { Express } from 'express';
import type { Browser } from 'playwright-core';
import { DOCS_PATH } from '@lib/http';
import { listenLoopback } from '../sweeps/raw-client';

/** Debian's chromium (`apt-get install -y chromium`; .ci/run installs it). Nothing is downloaded. */
export const CHROMIUM = '/usr/bin/chromium';

export interface DocsPageView {
  /** The operations Swagger UI rendered, as `GET /users` (method upper-case, path as documented). */
  operations: string[];
  /** The operations of the service's `/openapi.json`, in the same form. */
  documented: string[];
  /** Every URL the page asked for that is not on the page's own origin (data: URIs excluded). */
  foreignRequests: string[];
  /** Console errors, CSP violations among them. */
  consoleErrors: string[];
  /** The Content-Security-Policy the page came with. */
  csp: string | undefined;
}

/**
 * Headless chromium (playwright-core on Debian's chromium): for the browser tests, which never skip.
 * Fails with the install command when chromium is missing.
 */
export async function launchChromium(timeoutMs = 60_000): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`the browser tests need Debian's chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does)`);
  }
  const { chromium } = await import('playwright-core');
  // --no-sandbox: CI runs as root, where chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], timeout: timeoutMs });
}

/**
 * Serves `app` on a loopback port, opens its `/docs` page in headless chromium, waits (generously)
 * until Swagger UI has rendered the operations, and reports what the page showed and fetched.
 * Fails with the install command when chromium is missing: the browser test never skips.
 */
export async function browseDocsPage(app: Express, timeoutMs = 60_000): Promise<DocsPageView> {
  const browser = await launchChromium(timeoutMs);
  const server = await listenLoopback(app).catch(async (err: unknown) => {
    await browser.close();
    throw err;
  });
  const origin = `http://127.0.0.1:${server.port}`;
  try {
    const page = await browser.newPage();
    const view: DocsPageView = { operations: [], documented: await documentedOperations(origin), foreignRequests: [], consoleErrors: [], csp: undefined };
    page.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith('data:') && new URL(url).origin !== origin) view.foreignRequests.push(url);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') view.consoleErrors.push(message.text());
    });
    const response = await page.goto(`${origin}${DOCS_PATH}`, { timeout: timeoutMs });
    view.csp = response?.headers()['content-security-policy'];
    await page.locator('.opblock-summary').first().waitFor({ timeout: timeoutMs });
    view.operations = await page.$$eval('.opblock-summary', (blocks) =>
      blocks.map((block) => {
        const method = block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '';
        const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
        return `${method.toUpperCase()} ${path}`;
      }),
    );
    // let anything the rendering started (icons, fonts) be requested before the report is read
    await page.waitForLoadState('networkidle', { timeout: timeoutMs });
    return view;
  } finally {
    await browser.close();
    await server.close();
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

async function documentedOperations(origin: string): Promise<string[]> {
  const document = (await (await fetch(`${origin}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/**
 * The docs-page test of every app: `/docs` rendered in a browser shows `examples` among its
 * operations and exactly the operations the OpenAPI document lists, loads nothing from another
 * origin and logs no console error.
 */
export async function expectDocsPageRenders(app: Express, examples: string[]): Promise<void> {
  const view = await browseDocsPage(app);
  expect(view.operations).toEqual(expect.arrayContaining(examples));
  expect([...view.operations].sort()).toEqual([...view.documented].sort());
  expect(view.foreignRequests).toEqual([]);
  expect(view.consoleErrors).toEqual([]);
}
