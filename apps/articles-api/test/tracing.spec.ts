import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleApp, startAppProcess, type AppProcess } from '@lib/testing';
import ConnectionString from 'mongodb-connection-string-url';

/**
 * Tracing as production runs it: the bundled app (express and mongodb required from node_modules,
 * as the image does), exporting OTLP/HTTP to a receiver in this test. A span's trace comes from the
 * request's traceparent. Without OTEL_EXPORTER_OTLP_ENDPOINT no OpenTelemetry SDK or instrumentation is loaded.
 */
interface ReceivedSpan {
  scope: string;
  name: string;
  traceId: string;
  kind: number;
}

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const TRACEPARENT = `00-${TRACE}-b7ad6b7169203331-01`;

/** An OTLP/HTTP (JSON) trace receiver. */
function otlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const payload = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ scope: { name: string }; spans: Array<Omit<ReceivedSpan, 'scope'>> }> }> };
        for (const resource of payload.resourceSpans)
          for (const scoped of resource.scopeSpans) for (const span of scoped.spans) spans.push({ scope: scoped.scope.name, name: span.name, traceId: span.traceId, kind: span.kind });
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  return { server, spans };
}

const databaseUrl = () => {
  const url = new ConnectionString(process.env.TEST_MONGO_URL!);
  url.pathname = `/tracing_${randomBytes(4).toString('hex')}`;
  return url.toString();
};

let dir: string;
let main: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'articles-tracing-'));
  ({ main } = await bundleApp('articles-api', dir));
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('tracing on (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  const receiver = otlpReceiver();
  let app: AppProcess;

  beforeAll(async () => {
    receiver.server.listen(0, '127.0.0.1');
    await new Promise((resolve) => receiver.server.once('listening', resolve));
    const { port } = receiver.server.address() as AddressInfo;
    app = await startAppProcess(main, { ARTICLES_MONGO_URL: databaseUrl(), LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` }, []);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await new Promise((resolve) => (receiver.server as Server).close(resolve));
  });

  it('exports the HTTP, Express and MongoDB spans of a request in the trace its traceparent names, and logs the trace id', async () => {
    const res = await fetch(`http://127.0.0.1:${app.port}/articles?limit=2`, { headers: { traceparent: TRACEPARENT } });
    expect(res.status).toBe(200);
    await fetch(`http://127.0.0.1:${app.port}/readyz`);
    await app.stop(); // shutdown exports what is still buffered

    const traced = receiver.spans.filter((span) => span.traceId === TRACE);
    const scopes = new Set(traced.map((span) => span.scope));
    expect(scopes).toEqual(new Set(['@opentelemetry/instrumentation-http', '@opentelemetry/instrumentation-express', '@opentelemetry/instrumentation-mongodb']));
    expect(traced).toContainEqual(expect.objectContaining({ scope: '@opentelemetry/instrumentation-http', name: 'GET /articles', kind: 2 })); // server span
    expect(traced.some((span) => span.scope === '@opentelemetry/instrumentation-mongodb' && span.name.includes('articles'))).toBe(true);
    // the probes (and the scrape) make no traces
    expect(receiver.spans.some((span) => span.name.includes('readyz'))).toBe(false);

    const line = app
      .output()
      .split('\n')
      .filter((text) => text.includes('"route":"/articles"'))
      .map((text) => JSON.parse(text));
    expect(line).toEqual([expect.objectContaining({ method: 'GET', status: 200, trace: TRACE })]);
  });
});

describe('tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('loads no OpenTelemetry SDK or instrumentation and logs no trace id', async () => {
    // prints, as the process exits, every loaded module of OpenTelemetry
    const report = path.join(dir, 'report-modules.js');
    await writeFile(
      report,
      `process.on('exit', () => {
        const loaded = Object.keys(require.cache);
        // @opentelemetry/api (the no-op API, no state) is loaded by prom-client's CPU metric, for exemplars
        const report = { otel: loaded.filter((m) => m.includes('@opentelemetry') && !m.includes('/@opentelemetry/api/')), express: loaded.some((m) => m.includes('/node_modules/express/')) };
        process.stderr.write('loaded: ' + JSON.stringify(report) + '\\n');
      });`,
    );
    const app = await startAppProcess(main, { ARTICLES_MONGO_URL: databaseUrl(), LOG_LEVEL: 'info' }, ['--require', report]);
    try {
      const res = await fetch(`http://127.0.0.1:${app.port}/articles`, { headers: { traceparent: TRACEPARENT } });
      expect(res.status).toBe(200);
      const metrics = await fetch(`http://127.0.0.1:${app.port}/metrics`);
      expect(metrics.status).toBe(200);
    } finally {
      await app.stop();
    }
    expect(app.output()).toContain('loaded: {"otel":[],"express":true}\n');
    expect(app.output()).toContain('"route":"/articles"');
    expect(app.output()).not.toContain('"trace"');
  });
});
