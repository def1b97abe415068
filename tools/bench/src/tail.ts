import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedMongo } from '@lib/mongo';
import { SERVICE_NODE_FLAGS } from '@lib/services';
import { appRows, endpoints, NEWS_KEY_LIMITS_OFF, type AppName } from './endpoints';
import { measure, type MeasureOptions } from './measure';
import { startNode, type Service } from './processes';
import { measureOptionsOf, roundOptions, rowsNamed } from './round-options';
import { seed } from './seed';
import { tailFigures, type BandFigures, type TailRecord } from './tail-report';

/**
 * A profile of the slow requests, not of the average: each app runs with tail-probe.ts preloaded,
 * which records every request's time to answer and every GC pause of its main thread; for each row,
 * after a warm-up, a fixed number of requests is driven and the slowest 1 % is compared with the
 * typical request (p40–p60): how many of them a scavenge or a mark-compact paused, for how long,
 * and what is left (waiting for the database or the event loop, and the request's own work).
 *
 *   npm run build && node dist/tools/bench/tail.js --only "=news GET /news?company=BHP,users/me" --requests 20000
 *   node dist/tools/bench/tail.js --only "users GET" --node-flags="--max-semi-space-size=16"
 */
const root = path.resolve(__dirname, '..', '..', '..');
const APPS: AppName[] = ['crm-api', 'articles-api', 'news-api', 'users-api'];

const { values: args } = parseArgs({
  options: {
    ...roundOptions(1),
    requests: { type: 'string', default: '20000' },
    warmup: { type: 'string', default: '2000' },
    /** Node flags for the apps after the production ones (SERVICE_NODE_FLAGS). */
    'node-flags': { type: 'string', default: '' },
  },
});
const log = (line: string) => console.error(`tail | ${line}`);
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '—');
const pct = (n: number) => (Number.isFinite(n) ? `${(n * 100).toFixed(1)} %` : '—');
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

/** Asks the app's probe to write what it recorded since the last signal, and reads it. */
async function collect(service: Service, file: string): Promise<TailRecord> {
  const before = existsSync(file) ? statSync(file).mtimeMs : 0;
  process.kill(service.pid, 'SIGUSR2');
  for (let i = 0; i < 100; i++) {
    await sleep(50);
    if (existsSync(file) && statSync(file).mtimeMs !== before) {
      await sleep(50); // the write is one call; let it finish
      return JSON.parse(readFileSync(file, 'utf8')) as TailRecord;
    }
  }
  throw new Error(`${service.name} wrote no tail record to ${file}`);
}

const bandCell = (band: BandFigures) => `${ms(band.meanMs)}, ${pct(band.withPause)}, ${ms(band.meanPauseMs)}, ${ms(band.meanOtherMs)}`;

async function main(): Promise<void> {
  // the warm-up is driven apart, so that the probe's record can be cleared between it and the run
  const options: MeasureOptions = { ...measureOptionsOf(args), warmupRequests: 0 };
  const warmup = Number(args.warmup);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-tail-'));
  const probe = path.join(root, 'dist', 'tools', 'bench', 'tail-probe.js');
  const nodeArgs = [...SERVICE_NODE_FLAGS, ...args['node-flags'].split(' ').filter(Boolean), '--require', probe];
  const database = await startEmbeddedMongo();
  const services: Partial<Record<AppName, Service>> = {};
  const files = Object.fromEntries(APPS.map((app) => [app, path.join(dir, `${app}.json`)])) as Record<AppName, string>;
  try {
    const env = { MONGO_URL: database.uri, NODE_ENV: 'development', NEWS_SYNC_INTERVAL: '0', ...NEWS_KEY_LIMITS_OFF };
    for (const app of APPS) services[app] = await startNode(app, path.join(root, 'dist', 'apps', app, 'main.js'), { ...env, BENCH_TAIL_FILE: files[app] }, nodeArgs);
    const seeded = await seed(services as Record<AppName, Service>, Number(args.seed), database.uri);
    const rows = appRows(rowsNamed(endpoints(seeded), args.only));
    log(`Node ${process.version}, flags ${nodeArgs.slice(0, -2).join(' ')}; ${options.requests} requests per row after ${warmup}, ${options.connections} connections`);
    console.log('\n| row | load | client p99 ms | server p50 / p99 / p99.9 / max ms | typical (p40–p60): mean ms, paused by GC, GC ms, other ms | slowest 1 %: mean ms, paused by GC, GC ms, other ms | scavenges: n, ms, max | mark-compacts: n, ms, max | GC share of the run | event-loop delay p50 / p99 / max ms |');
    console.log('|---|---:|---:|---|---|---|---|---|---:|---|');
    for (const row of rows) {
      const service = services[row.app];
      if (!service) throw new Error(`${row.app} is not running`);
      const load = os.loadavg()[0];
      await measure(service.port, service.pid, row.ours, { ...options, requests: warmup });
      await collect(service, files[row.app]); // forget the warm-up
      const figures = await measure(service.port, service.pid, row.ours, options);
      if (figures.failures) throw new Error(`${row.name}: ${figures.failures} failed answers`);
      const record = await collect(service, files[row.app]);
      const tail = tailFigures(record);
      const { minor, major } = tail.pauses;
      const delay = record.loopDelayMs;
      console.log(
        `| ${row.name} | ${load.toFixed(1)} | ${figures.p99Ms} | ${ms(tail.p50Ms)} / ${ms(tail.p99Ms)} / ${ms(tail.p999Ms)} / ${ms(tail.maxMs)} | ${bandCell(tail.middle)} | ${bandCell(tail.slow)} | ${minor.count}, ${ms(minor.totalMs)}, ${ms(minor.maxMs)} | ${major.count}, ${ms(major.totalMs)}, ${ms(major.maxMs)} | ${pct(tail.pausedShare)} | ${delay ? `${ms(delay.p50)} / ${ms(delay.p99)} / ${ms(delay.max)}` : '—'} |`,
      );
    }
  } finally {
    for (const service of Object.values(services).reverse()) await service.stop();
    await database.stop();
  }
}

main().catch((err: Error) => {
  console.error(`tail failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
