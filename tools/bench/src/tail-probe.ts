/**
 * Preloaded into an app by tail.ts (`node --require tail-probe.js`): records when each HTTP request
 * arrived and how long it took to answer (Node's own `http.server.*` diagnostics channels, nothing
 * of the app touched), each garbage-collection pause (a `gc` performance entry), all on the
 * monotonic clock of `performance.now()`, and how late its event loop ran (monitorEventLoopDelay). SIGUSR2 writes what was recorded since the last SIGUSR2 to
 * `$BENCH_TAIL_FILE` (JSON, tail-report.ts's `TailRecord`) and starts afresh: tail.ts signals once
 * before a measured run and once after it.
 */
import diagnostics from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { constants, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import type { GcPause, TailRecord } from './tail-report';

const file = process.env.BENCH_TAIL_FILE;
/** At most this many requests and pauses are kept between two signals (about 16 MB at the most). */
const MAX_ENTRIES = 500_000;

const started = new WeakMap<IncomingMessage, number>();
let requests: Array<[number, number]> = [];
let pauses: GcPause[] = [];
// how late the event loop ran a 1 ms timer (ns): what the process itself made every request wait
const loopDelay = monitorEventLoopDelay({ resolution: 1 });

const GC_KINDS: Record<number, GcPause['kind']> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

if (file) {
  diagnostics.subscribe('http.server.request.start', (message) => {
    started.set((message as { request: IncomingMessage }).request, performance.now());
  });
  diagnostics.subscribe('http.server.response.finish', (message) => {
    const at = started.get((message as { request: IncomingMessage }).request);
    if (at !== undefined && requests.length < MAX_ENTRIES) requests.push([at, performance.now() - at]);
  });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (pauses.length >= MAX_ENTRIES) return;
      const kind = GC_KINDS[(entry as { detail?: { kind?: number } }).detail?.kind ?? -1] ?? 'other';
      pauses.push({ at: entry.startTime, ms: entry.duration, kind });
    }
  }).observe({ entryTypes: ['gc'] });
  loopDelay.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns: number) => ns / 1e6;
    const record: TailRecord = { requests, pauses, loopDelayMs: { p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) } };
    writeFileSync(file, JSON.stringify(record));
    requests = [];
    pauses = [];
    loopDelay.reset();
  });
}
