import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedMongo } from '@lib/mongo';
import { SERVICE_NODE_FLAGS } from '@lib/services';
import { appRows, endpoints, type AppEndpoint, type AppName, NEWS_KEY_LIMITS_OFF } from './endpoints';
import { measure, type MeasureOptions } from './measure';
import { rssMb, startNode, type Service } from './processes';
import { median } from './report';
import { inRotatingOrder, measureOptionsOf, roundOptions, rowsNamed } from './round-options';
import { seed } from './seed';

/**
 * Interleaved A/B(/C…) comparison on a loaded machine: builds (or sets of Node flags) of the apps
 * on one database, each row driven with the same fixed number of requests by every side in turn
 * (the order rotating each round), measuring each app process's CPU time per request from /proc
 * (the client in this process, the apps in their own). Wall-clock throughput means nothing on a
 * shared machine; CPU per request of interleaved runs does, compared round by round.
 *
 *   mkdir -p .ab/before && cp -r dist .ab/before/   # an older build, inside the workspace (it needs node_modules)
 *   node dist/tools/bench/ab.js --side "before|.ab/before" --side "after|." --only "users/me" --rounds 6
 *   node dist/tools/bench/ab.js --side "semi4||--max-old-space-size=128 --max-semi-space-size=4" \
 *     --side "semi16||--max-old-space-size=128 --max-semi-space-size=16" --only news
 *   node dist/tools/bench/ab.js --side "prod|." "--baseline-flags=" "--baseline-flags=--max-old-space-size=128 …" --only news
 *     # one side against the baseline under Node's defaults and under the given flags
 */
const root = path.resolve(__dirname, '..', '..', '..');
const APPS: AppName[] = ['crm-api', 'articles-api', 'news-api', 'users-api'];

const { values: args } = parseArgs({
  options: {
    /**
     * A side: `label|workspace|node flags|NAME=value …`, repeated (two or more, or one with a baseline). The workspace holds
     * dist/apps/* (default: this one); the flags default to the production ones (SERVICE_NODE_FLAGS);
     * the environment variables (e.g. MALLOC_ARENA_MAX=2) are set for that side's apps only.
     */
    side: { type: 'string', multiple: true, default: [] },
    ...roundOptions(4),
    /** Also measure the baseline in each round (for the ratio the bench reports). */
    baseline: { type: 'boolean', default: false },
    /** Node flags of a baseline process, repeated for several (each its own column; `--baseline` alone: node's defaults). */
    'baseline-flags': { type: 'string', multiple: true, default: [] },
    /** Write V8 CPU profiles of the last side's apps into this folder. */
    profile: { type: 'string' },
  },
});
const log = (line: string) => console.error(`ab | ${line}`);
const fixed = (n: number, digits = 3) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

interface Side {
  label: string;
  workspace: string;
  flags: string[];
  env: Record<string, string>;
  apps: Partial<Record<AppName, Service>>;
}

function parseSide(text: string): Side {
  const [label, workspace, flags, env = ''] = text.split('|');
  const vars = Object.fromEntries(env.split(' ').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
  return { label, workspace: path.resolve(workspace || root), flags: flags === undefined ? [...SERVICE_NODE_FLAGS] : flags.split(' ').filter(Boolean), env: vars, apps: {} };
}

async function startSide(side: Side, env: Record<string, string>, apps: AppName[], profile: boolean): Promise<Service[]> {
  const nodeArgs = [...side.flags, ...(profile && args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : [])];
  const started: Service[] = [];
  for (const app of apps) {
    const script = path.join(side.workspace, 'dist', 'apps', app, 'main.js');
    if (!existsSync(script)) throw new Error(`${script} is missing: build that side first`);
    // the machine is shared: a free port can be taken before the app binds it, so try again
    const start = () => startNode(`${side.label} ${app}`, script, { ...env, ...side.env }, nodeArgs);
    const service = await start().catch(start).catch(start);
    side.apps[app] = service;
    started.push(service);
  }
  return started;
}

async function main(): Promise<void> {
  const sides = (args.side as string[]).map(parseSide);
  const baselineFlags = args['baseline-flags'].length ? args['baseline-flags'] : args.baseline ? [''] : [];
  // one side is enough when it is compared with baselines
  if (sides.length < (baselineFlags.length ? 1 : 2)) throw new Error('give two sides or more (or one and --baseline): --side "label|workspace|flags"');
  const options = measureOptionsOf(args);
  const database = await startEmbeddedMongo();
  const services: Service[] = [];
  try {
    const env = { MONGO_URL: database.uri, NODE_ENV: 'development', NEWS_SYNC_INTERVAL: '0', ...NEWS_KEY_LIMITS_OFF };
    for (const side of sides) log(`${side.label}: ${side.workspace} [${side.flags.join(' ')}]${Object.keys(side.env).length ? ` ${JSON.stringify(side.env)}` : ''}`);
    services.push(...(await startSide(sides[0], env, APPS, sides.length === 1)));
    const first = sides[0].apps as Record<AppName, Service>;
    const seeded = await seed(first, Number(args.seed), database.uri);
    const rows = appRows(rowsNamed(endpoints(seeded), args.only));
    const needed = [...new Set(rows.map((row) => row.app))];
    for (const [i, side] of sides.entries()) if (i > 0) services.push(...(await startSide(side, env, needed, i === sides.length - 1)));
    const baselines: Baseline[] = [];
    for (const flags of baselineFlags) {
      const nodeArgs = flags.split(' ').filter(Boolean);
      const service = await startNode('baseline', path.join(root, 'dist', 'tools', 'bench', 'baseline.js'), env, nodeArgs);
      services.push(service);
      baselines.push({ label: nodeArgs.length ? `baseline [${flags}]` : 'baseline', service });
    }

    const labels = sides.map((side) => side.label);
    console.log(`\n${options.requests} requests per run after ${options.warmupRequests} of warm-up, ${options.connections} connections; each round runs every side once, in a rotating order; RSS right after the side's run\n`);
    console.log(`| row | round | load (1 min) | ${labels.map((l) => `${l} CPU ms/req`).join(' | ')} | ${labels.map((l) => `${l} RSS MB`).join(' | ')} |${baselines.map((b) => ` ${b.label} CPU ms/req |`).join('')}`);
    console.log(`|---|---:|---:|${labels.map(() => '---:|').join('')}${labels.map(() => '---:|').join('')}${baselines.map(() => '---:|').join('')}`);
    for (const row of rows) await compareRounds(row, sides, baselines, options);
  } finally {
    for (const service of services.reverse()) await service.stop();
    await database.stop();
  }
}

interface Baseline {
  label: string;
  service: Service;
}

async function compareRounds(row: AppEndpoint, sides: Side[], baselines: Baseline[], options: MeasureOptions): Promise<void> {
  const cpu = sides.map(() => [] as number[]);
  const rate = sides.map(() => [] as number[]);
  const p99 = sides.map(() => [] as number[]);
  const base = baselines.map(() => [] as number[]);
  for (let round = 0; round < Number(args.rounds); round++) {
    const load = os.loadavg()[0];
    const runs = sides.map((side, i) => async () => {
      const service = side.apps[row.app];
      if (!service) throw new Error(`${side.label} has no ${row.app}`);
      const figures = await measure(service.port, service.pid, row.ours, options);
      if (figures.failures) throw new Error(`${row.name}: ${figures.failures} failed answers from ${service.name}`);
      cpu[i][round] = figures.cpuMsPerRequest;
      rate[i][round] = figures.requestsPerSecond;
      p99[i][round] = figures.p99Ms;
      return rssMb(service.pid);
    });
    const rss = await inRotatingOrder(round, runs);
    for (const [i, { service }] of baselines.entries()) base[i].push((await measure(service.port, service.pid, row.baseline, options)).cpuMsPerRequest);
    console.log(`| ${row.name} | ${round + 1} | ${load.toFixed(1)} | ${cpu.map((c) => fixed(c[round])).join(' | ')} | ${rss.map((r) => r.toFixed(0)).join(' | ')} |${base.map((b) => ` ${fixed(b[round])} |`).join('')}`);
  }
  const ratios = sides.map((_, i) => median(cpu[i].map((c, round) => c / cpu[0][round])));
  // throughput and p99 only mean something when the machine was quiet: the load column says
  const summary = sides
    .map((side, i) => `${side.label} ${fixed(median(cpu[i]))} ms (×${fixed(ratios[i], 2)} of ${sides[0].label}; ${median(rate[i]).toFixed(0)} req/s, p99 ${median(p99[i])} ms)`)
    .join(', ');
  console.log(`| ${row.name} | median | | ${cpu.map((c) => fixed(median(c))).join(' | ')} | ${sides.map(() => '').join(' | ')} |${base.map((b) => ` ${fixed(median(b))} |`).join('')}`);
  log(`${row.name}: ${summary}${baselines.map((b, i) => `; ${b.label} ${fixed(median(base[i]))} ms`).join('')}`);
}

main().catch((err: Error) => {
  console.error(`ab failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
