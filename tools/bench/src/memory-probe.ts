/**
 * Preloaded into each benchmarked process (`node --require memory-probe.js`): once a second it
 * appends one JSON line to `$BENCH_MEMORY_FILE` saying what the resident set is made of, without
 * touching the app's API. It never forces a collection (that would change what it measures); the
 * live heap is read right after each full (mark-compact) collection V8 does by itself.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import type { ProbeSample } from './memory-sample';

const file = process.env.BENCH_MEMORY_FILE;
const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

let liveHeapMb = NaN;
let liveArrayBuffersMb = NaN;
let majorGcs = 0;
let gcMs = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
    // pauses only: an incremental-marking entry spans the marking steps and the JavaScript between them
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR || kind === constants.NODE_PERFORMANCE_GC_MAJOR) gcMs += entry.duration;
    if (kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
    majorGcs++;
    liveHeapMb = mb(v8.getHeapStatistics().used_heap_size);
    liveArrayBuffersMb = mb(process.memoryUsage().arrayBuffers);
  }
});

/** RssAnon/RssFile from /proc: anonymous memory (heap, malloc) versus mapped files (the node binary's code). */
function procStatus(): { rssAnonMb: number; rssFileMb: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rssAnonMb: mb(kb('RssAnon') * 1024), rssFileMb: mb(kb('RssFile') * 1024) };
}

function sample(): ProbeSample {
  const usage = process.memoryUsage();
  const heap = v8.getHeapStatistics();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, { sizeMb: mb(s.space_size), usedMb: mb(s.space_used_size) }]));
  return {
    t: Date.now(),
    rssMb: mb(usage.rss),
    ...procStatus(),
    heapTotalMb: mb(usage.heapTotal),
    heapUsedMb: mb(usage.heapUsed),
    heapPhysicalMb: mb(heap.total_physical_size),
    liveHeapMb,
    liveArrayBuffersMb,
    majorGcs,
    gcMs: Math.round(gcMs),
    externalMb: mb(usage.external),
    arrayBuffersMb: mb(usage.arrayBuffers),
    mallocedMb: mb(heap.malloced_memory),
    heapLimitMb: mb(heap.heap_size_limit),
    spaces,
  };
}

if (file) {
  observer.observe({ entryTypes: ['gc'] });
  setInterval(() => appendFileSync(file, `${JSON.stringify(sample())}\n`), 1_000).unref();
}
