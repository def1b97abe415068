import type { ProbeSample } from './memory-sample';
import { slopePerMinute } from './report';

/** The memory target: resident set under 150 MB per app, and no steady growth. */
export const MEMORY_LIMIT_MB = 150;

/**
 * Growth slower than this (MB per minute over the soak's second half) is read as flat: one full
 * collection more or less moves the slope as much. (A leak of 1 KB per request at 100 requests/s
 * is 6 MB/min.)
 */
export const GROWTH_MB_PER_MIN = 1;

/** Fewer full collections than this in the second half leave the live heap's slope unknown. */
const MIN_GCS_FOR_SLOPE = 3;

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** What one process's resident set is made of at one moment, as a table row. */
export function compositionRow(name: string, s: ProbeSample): string {
  const space = (name: string) => s.spaces[name]?.sizeMb ?? NaN;
  const largeObjects = ['large_object_space', 'code_large_object_space', 'new_large_object_space'].reduce((sum, name) => sum + (s.spaces[name]?.sizeMb ?? 0), 0);
  // anonymous memory outside V8's heap pages: the buffers' bytes, malloc (V8's, libuv's, OpenSSL's, the
  // allocator's per-thread arenas), thread stacks. (External counts bson's 17 MB serialisation buffer,
  // allocated once and mostly never touched, so it is not resident: do not subtract it.)
  const native = s.rssAnonMb - s.heapPhysicalMb;
  const cells = [
    s.rssMb,
    s.rssFileMb,
    s.rssAnonMb,
    s.heapPhysicalMb,
    space('new_space'),
    space('old_space'),
    space('code_space'),
    largeObjects,
    s.heapUsedMb,
    s.liveHeapMb,
    s.externalMb,
    s.arrayBuffersMb,
    s.liveArrayBuffersMb,
    s.mallocedMb,
    native,
  ];
  return `| ${name} | ${cells.map((c) => fixed(c)).join(' | ')} |`;
}

export function compositionTable(processes: Array<[string, ProbeSample | undefined]>): string {
  const lines = [
    '| process | RSS | of it file-backed (code) | anonymous | V8 heap resident | new space | old space | code space | large objects | heap used | live heap (after last full GC) | external | of it array buffers | array buffers after last full GC | V8 malloc | native (anonymous − V8 heap) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [name, sample] of processes) lines.push(sample ? compositionRow(name, sample) : `| ${name} | no probe samples |`);
  return lines.join('\n');
}

interface Series {
  start: number;
  end: number;
  max: number;
  /** Least-squares slope over the second half of the window, MB per minute. */
  secondHalfSlope: number;
}

function series(samples: ProbeSample[], value: (s: ProbeSample) => number, window: { startedAt: number; endedAt: number }, minPoints = 2): Series {
  const values = samples.map(value);
  const secondHalf = samples.filter((s) => s.t >= (window.startedAt + window.endedAt) / 2);
  return {
    start: values[0] ?? NaN,
    end: values[values.length - 1] ?? NaN,
    max: values.length ? Math.max(...values) : NaN,
    secondHalfSlope: secondHalf.length >= minPoints ? slopePerMinute(secondHalf.map((s) => [s.t, value(s)])) : NaN,
  };
}

export interface SoakMemory {
  app: string;
  afterBenchMb: number;
  rss: Series;
  heapUsed: Series;
  /** Heap used after full collections: the live data, without the garbage waiting to be collected. */
  liveHeap: Series;
  /** Full (mark-compact) collections during the soak. */
  fullGcs: number;
  /** CPU time per request answered during the soak. */
  cpuMsPerRequest: number;
}

/** One app's memory over the soak, from its probe samples taken inside the window. */
export function soakMemory(
  app: string,
  afterBenchMb: number,
  samples: ProbeSample[],
  window: { startedAt: number; endedAt: number },
  load: { requests: number; cpuMs: number } = { requests: 0, cpuMs: NaN },
): SoakMemory {
  const inWindow = samples.filter((s) => s.t >= window.startedAt && s.t <= window.endedAt);
  // one point per full collection: the first sample after it
  const afterGcs = inWindow.filter((s, i) => Number.isFinite(s.liveHeapMb) && (i === 0 || s.majorGcs !== inWindow[i - 1].majorGcs));
  return {
    app,
    afterBenchMb,
    rss: series(inWindow, (s) => s.rssMb, window),
    heapUsed: series(inWindow, (s) => s.heapUsedMb, window),
    liveHeap: series(afterGcs, (s) => s.liveHeapMb, window, MIN_GCS_FOR_SLOPE),
    fullGcs: inWindow.length ? inWindow[inWindow.length - 1].majorGcs - inWindow[0].majorGcs : 0,
    cpuMsPerRequest: load.cpuMs / load.requests,
  };
}

/** Over the limit at any point, and whether both the resident set and the live heap keep rising. */
export function memoryVerdict(m: SoakMemory, limitMb = MEMORY_LIMIT_MB): string {
  const problems = [
    ...(m.afterBenchMb >= limitMb || m.rss.max >= limitMb ? [`over ${limitMb} MB`] : []),
    ...(m.rss.secondHalfSlope > GROWTH_MB_PER_MIN && m.liveHeap.secondHalfSlope > GROWTH_MB_PER_MIN ? ['RSS and live heap rising'] : []),
  ];
  return problems.length ? `MISS: ${problems.join(', ')}` : 'ok';
}

export function memoryTable(rows: SoakMemory[]): string {
  const lines = [
    '| app | RSS after bench MB | soak RSS start / end / max MB | RSS 2nd-half slope MB/min | heap used start / end / max MB | heap used slope MB/min | live heap start / end MB (full GCs) | live heap slope MB/min | soak CPU ms/req | verdict |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const m of rows) {
    const triple = (s: Series) => `${fixed(s.start)} / ${fixed(s.end)} / ${fixed(s.max)}`;
    lines.push(
      `| ${m.app} | ${fixed(m.afterBenchMb)} | ${triple(m.rss)} | ${fixed(m.rss.secondHalfSlope, 2)} | ${triple(m.heapUsed)} | ${fixed(m.heapUsed.secondHalfSlope, 2)} | ${fixed(m.liveHeap.start)} / ${fixed(m.liveHeap.end)} (${m.fullGcs}) | ${fixed(m.liveHeap.secondHalfSlope, 2)} | ${fixed(m.cpuMsPerRequest, 2)} | ${memoryVerdict(m)} |`,
    );
  }
  return lines.join('\n');
}
