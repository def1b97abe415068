import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) that the summary reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }[];
  /** Microseconds on the monotonic clock (`process.hrtime` of any process on the machine reads the same clock). */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Self time by category inside a window of the profile, in microseconds of sampled main-thread time. */
export interface ProfileSummary {
  /** Busy time: every sample but `(idle)`. */
  busyUs: number;
  byCategory: Map<string, number>;
  /** Self time by function (`category: name (file:line)`), for the largest single costs. */
  byFunction: Map<string, number>;
}

/** The MongoDB drivers (mongodb-core: the 2.x driver's wire layer, for profiles of older services). */
const DRIVERS = new Set(['mongodb', 'mongodb-core']);
const SOCKET_WRITES = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writeAsciiString', 'writeUcs2String']);

/** npm packages by the category they are reported under (anything else: `other deps: <name>`). */
const PACKAGE_CATEGORY: Record<string, string> = {
  mongodb: 'driver',
  'mongodb-core': 'driver',
  'mongodb-connection-string-url': 'driver',
  bson: 'BSON',
  mongoose: 'mongoose',
  mquery: 'mongoose',
  kareem: 'mongoose',
  express: 'express',
  router: 'express',
  'body-parser': 'express',
  finalhandler: 'express',
  'on-finished': 'express',
  'content-type': 'express',
  'content-disposition': 'express',
  accepts: 'express',
  negotiator: 'express',
  'type-is': 'express',
  'media-typer': 'express',
  'mime-types': 'express',
  qs: 'express',
  vary: 'express',
  send: 'express',
  etag: 'express',
  fresh: 'express',
  'path-to-regexp': 'express',
  'parseurl': 'express',
  'encodeurl': 'express',
  'escape-html': 'express',
  'cookie-signature': 'express',
  'range-parser': 'express',
  'statuses': 'express',
  'depd': 'express',
  'debug': 'express',
  'raw-body': 'express',
  'iconv-lite': 'express',
  pino: 'logging',
  'sonic-boom': 'logging',
  'thread-stream': 'logging',
  'fast-redact': 'logging',
  'quick-format-unescaped': 'logging',
  'atomic-sleep': 'logging',
  jsonwebtoken: 'JWT',
  jws: 'JWT',
  jwa: 'JWT',
  'buffer-equal-constant-time': 'JWT',
  'ecdsa-sig-formatter': 'JWT',
  'safe-buffer': 'JWT',
  passport: 'auth (passport)',
  'passport-http': 'auth (passport)',
  'passport-strategy': 'auth (passport)',
  zod: 'validation (zod)',
  'prom-client': 'metrics',
  autocannon: 'client',
};

/** The npm package a path inside node_modules belongs to (scoped packages included). */
function packageOf(url: string): string | undefined {
  const at = url.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const parts = url.slice(at + 'node_modules/'.length).split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

/**
 * Maps a bundled file's positions to the source files they came from (esbuild writes `<bundle>.map`
 * beside each bundle): `ours: libs/http/src/logger.ts`. Files without a map keep their name.
 */
export class SourceFiles {
  private readonly maps = new Map<string, SourceMap | null>();

  constructor(private readonly root: string) {}

  fileOf(url: string, line: number, column: number): string {
    const file = url.startsWith('file://') ? new URL(url).pathname : url;
    let map = this.maps.get(file);
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
      } catch {
        map = null;
      }
      this.maps.set(file, map);
    }
    const entry = map?.findEntry(line, column) as { originalSource?: string } | undefined;
    const source = entry?.originalSource ? path.resolve(path.dirname(file), entry.originalSource.replace(/^file:\/\//, '')) : file;
    return path.relative(this.root, source);
  }
}

/** The category of a frame with a script (a frame without one takes its caller's, see `summarize`). */
export function categoryOf(url: string, line: number, column: number, files: SourceFiles): string {
  const pkg = packageOf(url);
  if (pkg) return PACKAGE_CATEGORY[pkg] ?? `other deps: ${pkg}`;
  if (url.startsWith('node:')) {
    if (/^node:(_http_|http$|internal\/http)/.test(url)) return 'node core: http';
    if (/^node:(net|stream|internal\/streams|internal\/stream_base_commons)/.test(url)) return 'node core: net + streams';
    if (url === 'node:fs') return 'logging: stdout write (fs)';
    return 'node core: events, promises, timers';
  }
  const file = files.fileOf(url, line, column);
  if (file.includes('node_modules')) return categoryOf(file, 0, 0, files);
  return file.startsWith('tools/bench/') ? `bench: ${file}` : `ours: ${file}`;
}

/**
 * Self time by category (and by function) of the samples taken between `fromUs` and `toUs`
 * (microseconds, monotonic clock). A sample's time is the interval up to the next sample. A frame
 * with no script (a builtin such as `JSON.stringify`, a native binding such as the HMAC) counts for
 * the nearest caller that has one, except the socket writes (`writev`, `writeBuffer`, … —
 * `socket writes: database` under the driver, `socket writes: HTTP` otherwise) and V8's own
 * entries: `(garbage collector)` → GC, `(program)` → V8 (unattributed), `(idle)` not counted.
 */
export function summarize(profile: CpuProfile, fromUs: number, toUs: number, files: SourceFiles): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const categoryOfNode = new Map<number, [string, string]>();
  const frameOf = (id: number) => {
    const node = byId.get(id);
    if (!node) throw new Error(`the profile has no node ${id}`);
    return node.callFrame;
  };

  const classify = (id: number): [string, string] => {
    const known = categoryOfNode.get(id);
    if (known) return known;
    const frame = frameOf(id);
    const label = (file: string) => `${frame.functionName || '(anonymous)'} (${file}:${frame.lineNumber + 1})`;
    let result: [string, string];
    if (frame.functionName === '(garbage collector)') result = ['GC', frame.functionName];
    else if (frame.functionName === '(program)') result = ['V8 (program, unattributed)', frame.functionName];
    else if (frame.functionName === '(idle)' || frame.functionName === '(root)') result = ['(idle)', frame.functionName];
    else if (!frame.url && SOCKET_WRITES.has(frame.functionName) && byId.get(parent.get(id) ?? -1)?.callFrame.url !== 'node:fs') {
      let up = parent.get(id);
      let database = false;
      while (up !== undefined && !database) {
        database = DRIVERS.has(packageOf(frameOf(up).url) ?? '');
        up = parent.get(up);
      }
      result = [database ? 'socket writes: database' : 'socket writes: HTTP', frame.functionName];
    } else if (frame.url === 'node:internal/crypto/hash' || frame.url === 'node:internal/crypto/hash.js' || (!frame.url && byId.get(parent.get(id) ?? -1)?.callFrame.url.startsWith('node:internal/crypto'))) {
      // a hash or HMAC counts as `crypto ← <the caller's category>`: who asked for it is what matters
      let up = parent.get(id);
      while (up !== undefined && frameOf(up).url.startsWith('node:')) up = parent.get(up);
      const [category, caller] = up === undefined ? ['node core: other', ''] : classify(up);
      result = [`crypto ← ${category}`, `${frame.functionName} ← ${caller}`];
    } else if (!frame.url) {
      const up = parent.get(id);
      const [category, caller] = up === undefined ? ['V8 (program, unattributed)', ''] : classify(up);
      result = [category, `${frame.functionName} ← ${caller}`];
    } else {
      const category = categoryOf(frame.url, frame.lineNumber, frame.columnNumber, files);
      result = [category, label(category.startsWith('ours: ') ? category.slice(6) : path.basename(frame.url))];
    }
    categoryOfNode.set(id, result);
    return result;
  };

  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busyUs = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    if (at < fromUs || at > toUs) continue;
    const spent = profile.timeDeltas[i + 1] ?? 0;
    const [category, fn] = classify(profile.samples[i]);
    if (category === '(idle)') continue;
    busyUs += spent;
    byCategory.set(category, (byCategory.get(category) ?? 0) + spent);
    byFunction.set(`${category}: ${fn}`, (byFunction.get(`${category}: ${fn}`) ?? 0) + spent);
  }
  return { busyUs, byCategory, byFunction };
}

/** Adds summaries of several windows (rounds) of one row. */
export function addSummaries(summaries: ProfileSummary[]): ProfileSummary {
  const total: ProfileSummary = { busyUs: 0, byCategory: new Map(), byFunction: new Map() };
  for (const s of summaries) {
    total.busyUs += s.busyUs;
    for (const [k, v] of s.byCategory) total.byCategory.set(k, (total.byCategory.get(k) ?? 0) + v);
    for (const [k, v] of s.byFunction) total.byFunction.set(k, (total.byFunction.get(k) ?? 0) + v);
  }
  return total;
}

/** The groups a row's account is told in (docs/BENCHMARKS.md, "Where the remaining time goes"), by category. */
export function groupOf(category: string): string {
  const source = category.replace(/^crypto ← /, '').replace(/^ours: /, '');
  if (['driver', 'BSON', 'mongoose'].includes(category)) return 'database client (driver, BSON, mongoose)';
  if (category.startsWith('socket writes')) return category;
  if (category.startsWith('node core')) return 'node core (http, net, streams, events, promises)';
  if (category === 'GC') return 'GC (main thread)';
  if (source === 'express') return 'express (router, res.json, parsers)';
  if (category.startsWith('logging') || source === 'libs/http/src/logger.ts') return 'request log line (pino, stdout write)';
  if (/^(auth|JWT)/.test(source) || /\/auth\/|secrets\.ts|credential-cache|api-key/.test(source)) return 'authentication (Basic / JWT)';
  if (source.startsWith('validation') || source.startsWith('libs/validation/')) return 'validation (zod, safe input)';
  if (source.startsWith('libs/paging/') || source.endsWith('/paging.ts')) return 'paging (keyset, signed cursor)';
  if (/view|presenter|xml\.ts|negotiate|reply\.ts/.test(source)) return 'views, presenters, XML, negotiation';
  if (category.startsWith('ours: ') || category.startsWith('crypto ← ours: ')) return 'other code of ours (routing, request id, headers, gate, handlers, services)';
  if (category.startsWith('bench: ')) return 'the baseline handler';
  return category.startsWith('V8') ? category : 'other (metrics, small deps: lru-cache, proxy-addr…)';
}

/** A summary's categories merged into their groups. */
export function grouped(summary: ProfileSummary): ProfileSummary {
  const byCategory = new Map<string, number>();
  for (const [category, us] of summary.byCategory) byCategory.set(groupOf(category), (byCategory.get(groupOf(category)) ?? 0) + us);
  return { ...summary, byCategory };
}
