import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVICE_NODE_FLAGS } from '@lib/services';
import ConnectionString from 'mongodb-connection-string-url';
import { sendRaw, type RawRequest, type RawResponse } from '../sweeps/raw-client';
import { bundleApp, startAppProcess, type AppProcess } from './app-process';
import { insideTests } from '../inside-tests';

interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: { maximum?: number } }>;
  requestBody?: { content: Record<string, unknown> };
}

export interface OpenApiPaths {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export interface WorstRequestOptions {
  /** Only paths starting with this (default: every path but the probes and the document itself). */
  prefix?: string;
  /** The app's largest body: malformed bodies are sent at (just under) it. */
  bodyLimit: number;
  /** A value for a path parameter (`{id}`, `{email}`) that names something stored. */
  pathValue(name: string): string;
  /** A value for a query parameter other than the page size, or undefined to leave it out. */
  queryValue?(name: string): string | undefined;
  /** The media type GETs ask for: the larger answer when the app speaks XML. */
  accept?: string;
  /** Leave out DELETE (default), so the burst does not remove what its pages read. */
  deletes?: boolean;
}

const PAGE_PARAMETERS = ['page_size', 'limit'];

/**
 * The worst request of every operation of an app's served OpenAPI document (so routes added later
 * are included): GETs at the largest page size the document allows, and writes with a malformed
 * body of the body limit in every media type the operation takes (an array of 0s, each a
 * validation issue if the bounds on error bodies did not hold; in XML, empty elements).
 */
export function worstRequests(doc: OpenApiPaths, options: WorstRequestOptions): RawRequest[] {
  const requests: RawRequest[] = [];
  // just under the limit, room left for the envelope
  const size = options.bodyLimit - Math.min(2048, Math.floor(options.bodyLimit / 8));
  const zeros = `[${new Array(Math.floor(size / 2)).fill(0).join(',')}]`;
  for (const [template, operations] of Object.entries(doc.paths)) {
    if (options.prefix ? !template.startsWith(options.prefix) : /^\/(healthz|readyz|openapi\.json)$/.test(template)) continue;
    const url = template.replace(/\{([^}]+)\}/g, (_, name: string) => options.pathValue(name));
    for (const [method, operation] of Object.entries(operations)) {
      const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
      const search = query
        .map((p) => {
          const value = PAGE_PARAMETERS.includes(p.name) ? String(p.schema?.maximum ?? 10) : options.queryValue?.(p.name);
          return value === undefined ? undefined : `${p.name}=${value}`;
        })
        .filter(Boolean)
        .join('&');
      const target = search ? `${url}?${search}` : url;
      if (method === 'get') {
        requests.push({ method, url: target, headers: options.accept ? { Accept: options.accept } : {} });
        continue;
      }
      if (method === 'delete') {
        if (options.deletes) requests.push({ method, url: target, headers: {} });
        continue;
      }
      for (const type of Object.keys(operation.requestBody?.content ?? { 'application/json': {} })) {
        if (type === 'application/json') requests.push({ method, url: target, headers: { 'Content-Type': type }, body: `{"ids":${zeros}}` });
        if (type === 'application/x-www-form-urlencoded') {
          requests.push({ method, url: target, headers: { 'Content-Type': type }, body: `ids=${encodeURIComponent(zeros).slice(0, size)}` });
        }
        // empty elements: the costliest XML to parse for its size
        if (type === 'application/xml') requests.push({ method, url: target, headers: { 'Content-Type': type }, body: `<ids>${'<i/>'.repeat(Math.floor(size / 4) - 3)}</ids>` });
      }
    }
  }
  return requests;
}

/**
 * Sends every request of the burst at once and checks the app came through: every request
 * answered (no cut connection, no 5xx but 503 for shed work), no heap exhaustion, the process
 * alive and `/readyz` 200. Returns how many answers had each status.
 */
export async function expectSurvivesBurst(app: AppProcess, burst: RawRequest[], headers: Record<string, string> = {}): Promise<Record<number, number>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  try {
    const failed = (req: RawRequest) => (err: Error): RawResponse => ({ status: -1, headers: {}, text: `${req.method} ${req.url}: ${err.message}` });
    const answers = await Promise.all(burst.map((req) => sendRaw(app.port, { ...req, headers: { ...headers, ...req.headers } }, agent).catch(failed(req))));
    const summary: Record<number, number> = {};
    for (const answer of answers) summary[answer.status] = (summary[answer.status] ?? 0) + 1;
    const bad = answers.filter((a) => a.status < 200 || (a.status >= 500 && a.status !== 503));
    if (bad.length) {
      const examples = bad.slice(0, 5).map((a) => `${a.status} ${a.text.slice(0, 200)}`);
      throw new Error(`statuses ${JSON.stringify(summary)}:\n${examples.join('\n')}\napp output:\n${app.output().slice(-3000)}`);
    }
    expect(app.output()).not.toMatch(/heap out of memory|FATAL/);
    expect(app.alive()).toBe(true);
    expect((await sendRaw(app.port, { method: 'get', url: '/readyz', headers: {} })).status).toBe(200);
    return summary;
  } finally {
    agent.destroy();
  }
}

export interface ProductionApp {
  readonly app: AppProcess;
  /** The app's own database, for arranging stored data directly. */
  readonly mongoUrl: string;
}

/**
 * An app as production runs it — bundled, NODE_ENV=production, the production heap flags — on a
 * database of its own, for the calling test file: started before its tests, stopped after them.
 * `urlVariable` is the app's database variable (README.md, Configuration), e.g. `ARTICLES_MONGO_URL`.
 */
export function useProductionApp(name: string, urlVariable: string, env: Record<string, string>): ProductionApp {
  let dir: string | undefined;
  let app: AppProcess | undefined;
  let mongoUrl: string | undefined;
  beforeAll(async () => {
    const server = process.env.TEST_MONGO_URL;
    if (!server) throw new Error('TEST_MONGO_URL is not set: run this test through its jest config (global setup)');
    const url = new ConnectionString(server);
    url.pathname = `/production_${randomBytes(4).toString('hex')}`;
    mongoUrl = url.toString();
    dir = await mkdtemp(path.join(tmpdir(), `${name}-production-`));
    const { main } = await bundleApp(name, dir);
    app = await startAppProcess(main, { NODE_ENV: 'production', LOG_LEVEL: 'warn', [urlVariable]: mongoUrl, ...env }, SERVICE_NODE_FLAGS);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    get app() {
      return insideTests(app, 'the app');
    },
    get mongoUrl() {
      return insideTests(mongoUrl, 'the app');
    },
  };
}
