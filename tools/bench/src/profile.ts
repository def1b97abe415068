import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedMongo } from '@lib/mongo';
import { SERVICE_NODE_FLAGS } from '@lib/services';
import { addSummaries, grouped, SourceFiles, summarize, type CpuProfile } from './cpu-profile';
import { appRows, endpoints, type AppEndpoint, type AppName, NEWS_KEY_LIMITS_OFF } from './endpoints';
import { measure, type Figures, type MeasureOptions } from './measure';
import { startNode, type Service } from './processes';
import { measureOptionsOf, roundOptions, rowsNamed } from './round-options';
import { seed } from './seed';

/**
 * Where each row's CPU goes, ours against the baseline: V8 CPU profiles (`--cpu-prof`) of the apps
 * and of the baseline while the bench's load drives each row, the sides interleaved round by round
 * (a fixed number of requests each). Only the samples inside the measured runs are read (start-up,
 * seeding and warm-up are left out), their self time summed by category (our code by source file,
 * express, driver, BSON, socket writes, GC, logging…), as a share of the busy main thread and in
 * µs per request (the share times the main thread's CPU per request from /proc, so that time the
 * thread spent waiting for a core on a loaded machine is not counted).
 *
 *   node dist/tools/bench/profile.js --only "contact by id,users/me" --rounds 2 --out /tmp/prof
 *
 * Prints one table per row (markdown, categories in groups) and writes the profiles, the tables
 * (summary.md; every category, our code by source file: categories.md) and each row's largest
 * functions into the --out folder. `--from` summarizes the profiles of an earlier run again.
 */
const root = path.resolve(__dirname, '..', '..', '..');
const APPS: AppName[] = ['crm-api', 'articles-api', 'news-api', 'users-api'];

const { values: args } = parseArgs({
  options: {
    ...roundOptions(2),
    /** Where the profiles and the summaries go (a new temporary folder by default). */
    out: { type: 'string' },
    /** How many of each row's largest functions (ours) to list. */
    top: { type: 'string', default: '25' },
    /** Summarize the profiles and runs (windows.json) of an earlier run's --out folder again, without measuring. */
    from: { type: 'string' },
  },
});
const log = (line: string) => console.error(`profile | ${line}`);

interface Window {
  figures: Figures;
}
interface RowRuns {
  row: Pick<AppEndpoint, 'name' | 'app'>;
  ours: Window[];
  baseline: Window[];
  load: number[];
}

async function main(): Promise<void> {
  const out = args.from ? path.resolve(args.from) : args.out ? path.resolve(args.out) : mkdtempSync(path.join(os.tmpdir(), 'bench-profile-'));
  const options = measureOptionsOf(args);
  const profileDir = (name: string) => {
    const dir = path.join(out, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const runs: RowRuns[] = args.from ? (JSON.parse(readFileSync(path.join(out, 'windows.json'), 'utf8')) as RowRuns[]) : await measureRows(out, options, profileDir);
  if (!args.from) writeFileSync(path.join(out, 'windows.json'), JSON.stringify(runs.map(({ row, ...rest }) => ({ row: { name: row.name, app: row.app }, ...rest }))));
  const files = new SourceFiles(root);
  const profileOf = (name: string): CpuProfile => {
    const dir = path.join(out, name);
    const file = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort().at(-1);
    if (!file) throw new Error(`no profile was written in ${dir}`);
    return JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
  };
  const profiles = new Map<string, CpuProfile>();
  const profileFor = (name: string) => {
    let profile = profiles.get(name);
    if (!profile) profiles.set(name, (profile = profileOf(name)));
    return profile;
  };
  const report: string[] = [];
  const detail: string[] = [];
  for (const { row, ours, baseline, load } of runs) {
    const sideOf = (name: string, windows: Window[]) => {
      const profile = profileFor(name);
      const summary = addSummaries(windows.map((w) => summarize(profile, w.figures.fromUs, w.figures.toUs, files)));
      const requests = windows.reduce((n, w) => n + w.figures.requests, 0);
      const perRequest = (key: 'cpuMsPerRequest' | 'mainThreadCpuMsPerRequest') => (windows.reduce((n, w) => n + w.figures[key] * w.figures.requests, 0) / requests) * 1000;
      return { summary, requests, cpuUs: perRequest('cpuMsPerRequest'), mainUs: perRequest('mainThreadCpuMsPerRequest') };
    };
    const a = sideOf(row.app, ours);
    const b = sideOf('baseline', baseline);
    const usOf = (side: typeof a, us: number) => (side.summary.busyUs ? (us / side.summary.busyUs) * side.mainUs : 0);
    const f = (n: number) => n.toFixed(0);
    const table = (x: typeof a, y: typeof a) => {
      const categories = [...new Set([...x.summary.byCategory.keys(), ...y.summary.byCategory.keys()])];
      const cat = (side: typeof a, c: string) => usOf(side, side.summary.byCategory.get(c) ?? 0);
      categories.sort((p, q) => cat(x, q) - cat(y, q) - (cat(x, p) - cat(y, p)));
      const pct = (side: typeof a, c: string) => (side.summary.busyUs ? ((100 * (side.summary.byCategory.get(c) ?? 0)) / side.summary.busyUs).toFixed(1) : '0');
      return [
        '| self time, main thread | ours µs/req | ours % | baseline µs/req | baseline % | ours − baseline µs |',
        '|---|---:|---:|---:|---:|---:|',
        ...categories.map((c) => `| ${c} | ${f(cat(x, c))} | ${pct(x, c)} | ${f(cat(y, c))} | ${pct(y, c)} | ${f(cat(x, c) - cat(y, c))} |`),
        `| **main thread** (/proc) | ${f(x.mainUs)} | | ${f(y.mainUs)} | | ${f(x.mainUs - y.mainUs)} |`,
        `| other threads (GC helpers, libuv pool: Node 20 names none of them) | ${f(x.cpuUs - x.mainUs)} | | ${f(y.cpuUs - y.mainUs)} | | ${f(x.cpuUs - x.mainUs - (y.cpuUs - y.mainUs))} |`,
        `| **process** | ${f(x.cpuUs)} | | ${f(y.cpuUs)} | | ${f(x.cpuUs - y.cpuUs)} |`,
        '',
      ];
    };
    const heading = [
      `### ${row.name}`,
      '',
      `${args.rounds} rounds of ${options.requests} requests per side (after ${options.warmupRequests} of warm-up), load ${load.map((l) => l.toFixed(1)).join(', ')}; ` +
        `CPU per request (all threads, /proc) ours ${f(a.cpuUs)} µs, baseline ${f(b.cpuUs)} µs (×${(a.cpuUs / b.cpuUs).toFixed(2)}); main thread ${f(a.mainUs)} / ${f(b.mainUs)} µs.`,
      '',
    ];
    const groupedSide = (side: typeof a) => ({ ...side, summary: grouped(side.summary) });
    report.push(...heading, ...table(groupedSide(a), groupedSide(b)));
    detail.push(...heading, ...table(a, b));
    const top = (side: typeof a, label: string) =>
      [...side.summary.byFunction]
        .sort((x, y) => y[1] - x[1])
        .slice(0, Number(args.top))
        .map(([fn, us]) => `${label} ${usOf(side, us).toFixed(1).padStart(7)} µs  ${fn}`);
    writeFileSync(path.join(out, `${row.name.replace(/[^a-z0-9]+/gi, '-')}.functions.txt`), [...top(a, 'ours    '), '', ...top(b, 'baseline')].join('\n') + '\n');
  }
  writeFileSync(path.join(out, 'summary.md'), report.join('\n'));
  writeFileSync(path.join(out, 'categories.md'), detail.join('\n'));
  console.log(report.join('\n'));
  log(`profiles, summary.md and each row's largest functions in ${out}`);
}

/** Drives every row on both sides, round by round, the processes profiled; the profiles are written when they stop. */
async function measureRows(out: string, options: MeasureOptions, profileDir: (name: string) => string): Promise<RowRuns[]> {
  const database = await startEmbeddedMongo();
  const services: Service[] = [];
  const runs: RowRuns[] = [];
  try {
    const env = { MONGO_URL: database.uri, NODE_ENV: 'development', NEWS_SYNC_INTERVAL: '0', ...NEWS_KEY_LIMITS_OFF };
    const apps = {} as Record<AppName, Service>;
    for (const app of APPS) {
      apps[app] = await startNode(app, path.join(root, 'dist', 'apps', app, 'main.js'), env, [...SERVICE_NODE_FLAGS, '--cpu-prof', `--cpu-prof-dir=${profileDir(app)}`]);
      services.push(apps[app]);
    }
    log(`seeding ${args.seed} records per service`);
    const seeded = await seed(apps, Number(args.seed), database.uri);
    // the baseline under the apps' Node flags, as the bench compares them (the same memory budget)
    const baseline = await startNode('baseline', path.join(root, 'dist', 'tools', 'bench', 'baseline.js'), env, [...SERVICE_NODE_FLAGS, '--cpu-prof', `--cpu-prof-dir=${profileDir('baseline')}`]);
    services.push(baseline);
    const rows = appRows(rowsNamed(endpoints(seeded), args.only));
    for (const row of rows) {
      const runsOfRow: RowRuns = { row, ours: [], baseline: [], load: [] };
      runs.push(runsOfRow);
      for (let round = 0; round < Number(args.rounds); round++) {
        runsOfRow.load.push(os.loadavg()[0]);
        const sides = [
          async () => runsOfRow.ours.push({ figures: await measure(apps[row.app].port, apps[row.app].pid, row.ours, options) }),
          async () => runsOfRow.baseline.push({ figures: await measure(baseline.port, baseline.pid, row.baseline, options) }),
        ];
        if (round % 2) sides.reverse();
        for (const side of sides) await side();
        const failed = [...runsOfRow.ours, ...runsOfRow.baseline].find((w) => w.figures.failures);
        if (failed) throw new Error(`${row.name}: ${failed.figures.failures} failed answers`);
        const last = (windows: Window[]) => windows[windows.length - 1].figures.cpuMsPerRequest.toFixed(3);
        log(`${row.name}, round ${round + 1}: ours ${last(runsOfRow.ours)} ms, baseline ${last(runsOfRow.baseline)} ms CPU per request`);
      }
    }
  } finally {
    // --cpu-prof writes each profile when its process exits
    for (const service of services.reverse()) await service.stop();
    await database.stop();
  }

  return runs;
}

main().catch((err: Error) => {
  console.error(`profile failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
