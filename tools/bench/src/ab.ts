import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedMongo } from '@lib/mongo';
import { SERVICE_NODE_FLAGS } from '@lib/services';
import { endpoints, type AppName, type Endpoint } from './endpoints';
import { measure, type MeasureOptions } from './measure';
import { rssMb, startNode, type Service } from './processes';
import { seed } from './seed';

/**
 * Interleaved A/B comparison on a loaded machine: two builds (or two sets of Node flags) of the
 * apps on one database, each row driven with the same fixed number of requests, alternately A then
 * B then B then A…, measuring each app process's CPU time per request from /proc (client in this
 * process, apps in their own). Wall-clock throughput means nothing on a shared machine; CPU per
 * request of interleaved runs does, as long as one compares pairs.
 *
 *   cp -r dist /work/wt/.ab/before/dist      # the old build, inside the workspace (it needs node_modules)
 *   node dist/tools/bench/ab.js --a .ab/before --only "users/me" --pairs 6
 *   node dist/tools/bench/ab.js --a-flags="--max-semi-space-size=4" --b-flags="--max-semi-space-size=16" --only news
 */
const root = path.resolve(__dirname, '..', '..', '..');
const APPS: AppName[] = ['crm-api', 'articles-api', 'news-api', 'users-api'];

const { values: args } = parseArgs({
  options: {
    /** Workspace folders holding dist/apps/* for each side (default: this workspace for both). */
    a: { type: 'string', default: root },
    b: { type: 'string', default: root },
    /** Node flags of each side (default: the production ones, SERVICE_NODE_FLAGS); "" for Node's defaults. */
    'a-flags': { type: 'string', default: SERVICE_NODE_FLAGS.join(' ') },
    'b-flags': { type: 'string', default: SERVICE_NODE_FLAGS.join(' ') },
    only: { type: 'string' },
    pairs: { type: 'string', default: '4' },
    requests: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '500' },
    connections: { type: 'string', default: '10' },
    seed: { type: 'string', default: '200' },
    /** Also measure the baseline in each pair (for the ratio the bench reports). */
    baseline: { type: 'boolean', default: false },
    /** Write V8 CPU profiles of side B's apps into this folder. */
    profile: { type: 'string' },
  },
});
const log = (line: string) => console.error(`ab | ${line}`);
const fixed = (n: number, digits = 3) => (Number.isFinite(n) ? n.toFixed(digits) : '—');
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

async function startSide(label: string, workspace: string, flags: string, env: Record<string, string>, apps: AppName[]): Promise<Record<string, Service>> {
  const started: Record<string, Service> = {};
  const nodeArgs = [...flags.split(' ').filter(Boolean), ...(label === 'B' && args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : [])];
  for (const app of apps) {
    const script = path.join(path.resolve(workspace), 'dist', 'apps', app, 'main.js');
    if (!existsSync(script)) throw new Error(`${script} is missing: build that side first`);
    started[app] = await startNode(`${label} ${app}`, script, env, nodeArgs);
  }
  return started;
}

async function main(): Promise<void> {
  const options: MeasureOptions = { connections: Number(args.connections), durationSeconds: 0, warmupSeconds: 0, requests: Number(args.requests), warmupRequests: Number(args.warmup) };
  const database = await startEmbeddedMongo();
  const services: Service[] = [];
  try {
    const env = { MONGO_URL: database.uri, NODE_ENV: 'development', NEWS_SYNC_INTERVAL: '0' };
    log(`A: ${args.a} [${args['a-flags']}]  B: ${args.b} [${args['b-flags']}]`);
    const a = await startSide('A', args.a, args['a-flags'], env, APPS);
    services.push(...Object.values(a));
    const seeded = await seed({ crm: a['crm-api'].port, articles: a['articles-api'].port, news: a['news-api'].port, users: a['users-api'].port }, Number(args.seed), database.uri);
    const rows = endpoints(seeded).filter((e) => !args.only || e.name.includes(args.only as string));
    const b = await startSide('B', args.b, args['b-flags'], env, [...new Set(rows.map((row) => row.app))]);
    services.push(...Object.values(b));
    const baseline = args.baseline ? await startNode('baseline', path.join(root, 'dist', 'tools', 'bench', 'baseline.js'), env) : undefined;
    if (baseline) services.push(baseline);

    console.log(`\n${options.requests} requests per run after ${options.warmupRequests} of warm-up, ${options.connections} connections; RSS after the run\n`);
    console.log(`| row | pair | order | load (1 min) | A CPU ms/req | B CPU ms/req | B / A | A RSS MB | B RSS MB |${baseline ? ' baseline CPU ms/req | B / baseline |' : ''}`);
    console.log(`|---|---:|---|---:|---:|---:|---:|---:|---:|${baseline ? '---:|---:|' : ''}`);
    for (const row of rows) await comparePairs(row, a[row.app], b[row.app], baseline, options);
  } finally {
    for (const service of services.reverse()) await service.stop();
    await database.stop();
  }
}

async function comparePairs(row: Endpoint, a: Service, b: Service, baseline: Service | undefined, options: MeasureOptions): Promise<void> {
  const ratios: number[] = [];
  for (let pair = 1; pair <= Number(args.pairs); pair++) {
    const load = os.loadavg()[0];
    const order = pair % 2 ? [a, b] : [b, a];
    const cpu = new Map<Service, number>();
    for (const side of order) {
      const figures = await measure(side.port, side.pid, row.ours, options);
      if (figures.failures) throw new Error(`${row.name}: ${figures.failures} failed answers from ${side.name}`);
      cpu.set(side, figures.cpuMsPerRequest);
    }
    const base = baseline ? (await measure(baseline.port, baseline.pid, row.baseline, options)).cpuMsPerRequest : NaN;
    const ratio = cpu.get(b)! / cpu.get(a)!;
    ratios.push(ratio);
    const extra = baseline ? ` ${fixed(base)} | ${fixed(cpu.get(b)! / base, 2)} |` : '';
    console.log(`| ${row.name} | ${pair} | ${order[0] === a ? 'A, B' : 'B, A'} | ${load.toFixed(1)} | ${fixed(cpu.get(a)!)} | ${fixed(cpu.get(b)!)} | ${fixed(ratio, 2)} | ${rssMb(a.pid).toFixed(0)} | ${rssMb(b.pid).toFixed(0)} |${extra}`);
  }
  log(`${row.name}: median B / A ${fixed(median(ratios), 2)} over ${ratios.length} pairs`);
}

main().catch((err: Error) => {
  console.error(`ab failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
