import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedMongo } from '@lib/mongo';
import { SERVICE_NODE_FLAGS } from '@lib/services';
import { endpoints, NEWS_SEARCH_DB, type AppName, type ProcessName, NEWS_KEY_LIMITS_OFF } from './endpoints';
import { measure, warm } from './measure';
import { compositionTable, memoryTable, soakMemory } from './memory-report';
import { readProbeFile } from './memory-sample';
import { rssMb, startNode, type Service } from './processes';
import { cpuRatioOf, markdownTable, ratios, type Round, type Row } from './report';
import { inRotatingOrder, readsFirst, rowsNamed } from './round-options';
import { searchCostOf, searchCostTable } from './search-cost';
import { NEWS_CORPUS, seed } from './seed';
import { soak } from './soak';
import { measureStartup } from './startup';
import { measureDelivery, measureHookedWrite, RECEIVER_HOST, startReceiver, webhookAccounts, webhookTables, type Delivery, type Receiver, type WebhookAccounts, type WebhookWrite } from './webhooks';

// The bundle lives in dist/tools/bench/, three levels below the workspace root.
const root = path.resolve(__dirname, '..', '..', '..');
const APPS: AppName[] = ['crm-api', 'articles-api', 'news-api', 'users-api'];
/** maxTimeMS of the search process's queries (MONGO_QUERY_TIME_MS): the embedded server takes seconds per command on its corpus. */
const SEARCH_QUERY_MS = 60_000;

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    /** Runs of each row per side, in rounds that rotate which side goes first; the figures are the rounds' medians. */
    rounds: { type: 'string', default: '3' },
    /** Seconds of warm-up before each measured run. */
    warmup: { type: 'string', default: '1' },
    /** Seconds each process serves a row right before the row's first round (0: none). */
    'row-warmup': { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    seed: { type: 'string', default: '200' },
    /** Articles of news-api's search corpus (the sort=relevancy row), beside the --seed ones. */
    'news-corpus': { type: 'string', default: String(NEWS_CORPUS) },
    soak: { type: 'string', default: '60' },
    'skip-startup': { type: 'boolean', default: false },
    /** Only the rows whose name contains this text (or one of these, comma-separated; comparisons while tuning). */
    only: { type: 'string' },
    /** Write a V8 CPU profile of each app (not the baseline) into this folder when it stops. */
    profile: { type: 'string' },
    /** Where each process's memory probe writes its samples (one JSON line a second); a new temporary folder by default. */
    'memory-dir': { type: 'string' },
    /** Write a V8 heap snapshot of each app into the memory folder at the start and the end of the soak (to compare in Chrome DevTools). */
    'heap-snapshots': { type: 'boolean', default: false },
    /** Node flags for the apps after the production ones (SERVICE_NODE_FLAGS), to compare settings: --node-flags="--max-semi-space-size=16". */
    'node-flags': { type: 'string', default: '' },
  },
});
const log = (line: string) => console.error(`bench | ${line}`);

async function main(): Promise<void> {
  const roundCount = Number(args.rounds);
  if (!Number.isInteger(roundCount) || roundCount < 1) throw new Error(`--rounds must be a whole number of at least 1, not ${args.rounds}`);
  const rowWarmupSeconds = Number(args['row-warmup']);
  if (!(rowWarmupSeconds >= 0)) throw new Error(`--row-warmup must be a number of seconds, 0 or more, not ${args['row-warmup']}`);
  const options = { durationSeconds: Number(args.duration), warmupSeconds: Number(args.warmup), connections: Number(args.connections) };
  log(`node ${process.version}, ${options.connections} connections, ${rowWarmupSeconds}s of each row before its rounds, ${roundCount} rounds of ${options.warmupSeconds}s warm-up + ${options.durationSeconds}s per side and row`);
  const database = await startEmbeddedMongo();
  const services: Service[] = [];
  try {
    const memoryDir = args['memory-dir'] ? path.resolve(args['memory-dir']) : mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
    mkdirSync(memoryDir, { recursive: true });
    // news-api: no feed sync (no network here; articles are seeded in the database)
    const env = { MONGO_URL: database.uri, NODE_ENV: 'development', NEWS_SYNC_INTERVAL: '0', ...NEWS_KEY_LIMITS_OFF };
    const apps = {} as Record<AppName, Service>;
    log(`memory samples in ${memoryDir}`);
    const probeFile = (name: string) => path.join(memoryDir, `${name}.jsonl`);
    const probe = (name: string) => ({ env: { ...env, BENCH_MEMORY_FILE: probeFile(name) }, args: ['--require', path.join(__dirname, 'memory-probe.js')] });
    // the apps run with the production image's Node flags (its CMD's --enable-source-maps too: the
    // source maps of the bundle and of the packages that ship theirs stay in memory), and the
    // baseline that the ratios are taken to with the same heap flags (the same memory budget); a
    // second baseline under Node's defaults is for reference
    const snapshotArgs = args['heap-snapshots'] ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${memoryDir}`] : [];
    const nodeArgs = ['--enable-source-maps', ...SERVICE_NODE_FLAGS, ...args['node-flags'].split(' ').filter(Boolean), ...snapshotArgs, ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : [])];
    for (const app of APPS) {
      const { env: probeEnv, args: probeArgs } = probe(app);
      // crm-api: the webhook row's receiver is on loopback (a variable read at start only: no cost to the other rows)
      const appEnv = app === 'crm-api' ? { ...probeEnv, WEBHOOK_ALLOWED_HOSTS: RECEIVER_HOST } : probeEnv;
      apps[app] = await startNode(app, path.join(root, 'dist', 'apps', app, 'main.js'), appEnv, [...probeArgs, ...nodeArgs]);
      services.push(apps[app]);
    }
    // the search rows' own news-api process and database (NEWS_SEARCH_DB), when a row selected needs it
    const allRows = rowsNamed(endpoints({ crmAuth: '', contactId: 0, contactEmail: '', trackId: 0, newsAuth: '', newsKey: '', newsSearchAuth: '', crmWebhook: { hooked: '', plain: '' } }), args.only);
    const searchRows = allRows.filter((row) => row.app === 'news-search');
    const corpus = Number(args['news-corpus']);
    let newsSearch: Service | undefined;
    if (searchRows.length && corpus > 0) {
      const url = new URL(database.uri);
      url.pathname = `/${NEWS_SEARCH_DB}`;
      // the embedded server scans the whole corpus for each command (seconds): a longer query limit than production's
      newsSearch = await startNode('news-api (search)', path.join(root, 'dist', 'apps', 'news-api', 'main.js'), { ...env, NEWS_MONGO_URL: url.toString(), MONGO_QUERY_TIME_MS: String(SEARCH_QUERY_MS) }, nodeArgs);
      services.push(newsSearch);
    }
    log(`seeding ${args.seed} records per service through the APIs${newsSearch ? `, and ${corpus} news articles for search` : ''}`);
    const seeded = await seed(apps, Number(args.seed), database.uri, newsSearch && { port: newsSearch.port, corpus });
    const cost = newsSearch && (await searchCostOf(database.uri));
    // the webhook row's receiver and accounts, when it is selected
    let receiver: Receiver | undefined;
    let hook: WebhookAccounts | undefined;
    if (allRows.some((row) => row.withoutWebhook)) {
      receiver = await startReceiver(path.join(__dirname, 'webhook-receiver.js'));
      services.push(receiver.service);
      hook = await webhookAccounts(root, database.uri, apps['crm-api'].port, receiver);
      seeded.crmWebhook = { ...hook, onResponse: receiver.onResponse };
      log(`webhook receiver on ${receiver.url}; accounts bench-hooked (one webhook on contact.*) and bench-plain`);
    }
    const processes: Record<ProcessName, Service | undefined> = { ...apps, 'news-search': newsSearch };
    const baselineProbe = probe('baseline');
    const baselineScript = path.join(root, 'dist', 'tools', 'bench', 'baseline.js');
    const baseline = await startNode('baseline', baselineScript, baselineProbe.env, [...baselineProbe.args, ...SERVICE_NODE_FLAGS]);
    services.push(baseline);
    const unbounded = await startNode('baseline at Node defaults', baselineScript, env);
    services.push(unbounded);

    const measured = readsFirst(rowsNamed(endpoints(seeded), args.only));
    // Each process serves a row right before the row's first round, so that every side is measured
    // with the row's paths compiled: in `--no-maglev` processes TurboFan takes thousands of requests
    // to compile them, and an app left quiet for 30 s while other apps' rows ran has given its
    // compiled code back with its memory (`returnIdleMemory`), where the baseline, one process
    // serving every row and without that, never does. Not the search row, on a process of its own,
    // whose requests take seconds on the embedded database.
    const rows: Row[] = [];
    let webhooks: { write: WebhookWrite; delivery: Delivery; connections: number } | undefined;
    for (const endpoint of measured) {
      const app = processes[endpoint.app];
      if (!app) throw new Error(`${endpoint.app} is not running`);
      const rowOptions = { ...options, connections: endpoint.connections ?? options.connections };
      let rounds: Round[];
      if (endpoint.withoutWebhook && receiver && hook) {
        // the same write for the account without a webhook, then the row's (its deliveries drained), then delivery: one round
        const plain = await measure(app.port, app.pid, endpoint.withoutWebhook, rowOptions);
        const hooked = await measureHookedWrite(app, receiver, endpoint.ours, rowOptions);
        const delivery = await measureDelivery(app, receiver, hook, endpoint.ours);
        webhooks = { write: { ...hooked, plain }, delivery, connections: rowOptions.connections };
        log(`${endpoint.name}: CPU ${hooked.hooked.cpuMsPerRequest.toFixed(2)} ms/req vs ${plain.cpuMsPerRequest.toFixed(2)} without a webhook; ${delivery.deliveriesPerSecond.toFixed(0)} deliveries/s`);
        const base = await measure(baseline.port, baseline.pid, endpoint.baseline, rowOptions);
        const reference = await measure(unbounded.port, unbounded.pid, endpoint.baseline, rowOptions);
        rounds = [{ ours: hooked.hooked, baseline: base, unbounded: reference }];
      } else {
        const sides = [
          [app, endpoint.ours],
          [baseline, endpoint.baseline],
          [unbounded, endpoint.baseline],
        ] as const;
        if (rowWarmupSeconds > 0 && endpoint.app !== 'news-search') {
          for (const [service, request] of sides) await warm(service.port, request, rowOptions.connections, rowWarmupSeconds);
        }
        const runs = sides.map(([service, request]) => () => measure(service.port, service.pid, request, rowOptions));
        rounds = [];
        for (let index = 0; index < roundCount; index++) {
          const [ours, base, reference] = await inRotatingOrder(index, runs);
          rounds.push({ ours, baseline: base, unbounded: reference });
        }
      }
      const row = { name: endpoint.name, rounds, cpuRatioTarget: endpoint.cpuRatioTarget };
      rows.push(row);
      const { cpu, throughput, verdict } = ratios(row);
      log(`${endpoint.name}: CPU ratio ${cpu.toFixed(2)} (rounds ${rounds.map((r) => cpuRatioOf(r).toFixed(2)).join(' ')}), throughput ratio ${throughput.toFixed(2)} — ${verdict}`);
    }
    console.log('\n## Throughput, latency and CPU per request (ratios: ours / baseline)\n');
    console.log(markdownTable(rows));
    if (webhooks) {
      console.log('\n## crm webhooks: a contact write with one webhook against one without, and delivery (one replica)\n');
      console.log(webhookTables(webhooks.write, webhooks.delivery, webhooks.connections));
    }
    if (cost) {
      console.log('\n## news-api search: what the index costs per stored article\n');
      console.log(searchCostTable(cost));
    }

    const afterBench = Object.fromEntries(APPS.map((app) => [app, rssMb(apps[app].pid)]));
    const baselineRss = rssMb(baseline.pid);
    const unboundedRss = rssMb(unbounded.pid);
    // the probes write once a second: this lets the last figures of the rows land
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    console.log('\n## Memory: what the resident set is made of after the benchmark (MB)\n');
    console.log(compositionTable([...APPS, 'baseline'].map((name) => [name, readProbeFile(probeFile(name)).at(-1)])));

    const soakSeconds = Number(args.soak);
    log(`soak: every app under ${options.connections} connections of reads for ${soakSeconds}s`);
    const reads = endpoints(seeded).filter((e) => e.ours.method === 'GET');
    const snapshot = () => args['heap-snapshots'] && APPS.forEach((app) => process.kill(apps[app].pid, 'SIGUSR2'));
    snapshot();
    const window = await soak(
      APPS.map((app) => ({ app, port: apps[app].port, pid: apps[app].pid, request: reads.find((e) => e.app === app)?.ours ?? { method: 'GET', path: '/readyz' } })),
      soakSeconds,
      options.connections,
    );
    snapshot();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const memory = APPS.map((app) => soakMemory(app, afterBench[app], readProbeFile(probeFile(app)), window, window.load.get(app)));
    console.log(`\n## Memory (resident set and V8 heap) after the benchmark and over a ${soakSeconds}-second soak\n`);
    console.log(memoryTable(memory));
    console.log(
      `\nFor scale: the baseline process (bare Express + plain driver, serving every row) held ${baselineRss.toFixed(1)} MB after the benchmark under the apps' Node flags, ${unboundedRss.toFixed(1)} MB under Node's defaults.`,
    );
  } finally {
    for (const service of services.reverse()) await service.stop();
    await database.stop();
  }

  if (!args['skip-startup']) {
    log('start-up: npm start until every /readyz answers 200');
    const startup = await measureStartup(root, APPS);
    console.log('\n## Start-up: `npm start` to every /readyz 200\n');
    console.log(`| | ms |\n|---|---:|\n${APPS.map((app) => `| ${app} ready | ${startup.perApp[app]} |`).join('\n')}\n| all ready | ${startup.totalMs} |`);
  }
}

main().catch((err: Error) => {
  console.error(`bench failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
