/** One garbage-collection pause as tail-probe.ts records it (ms on `performance.now()`'s clock). */
export interface GcPause {
  at: number;
  ms: number;
  kind: 'minor' | 'major' | 'incremental' | 'weak callbacks' | 'other';
}

/** What tail-probe.ts writes: each request as `[arrived at, ms to answer]`, the GC pauses, and how late the event loop ran a 1 ms timer. */
export interface TailRecord {
  requests: Array<[number, number]>;
  pauses: GcPause[];
  loopDelayMs?: { p50: number; p99: number; max: number };
}

/** Requests of one latency band and what the main thread's GC pauses took of them. */
export interface BandFigures {
  requests: number;
  meanMs: number;
  /** Share of the band's requests during which at least one scavenge or mark-compact paused the thread. */
  withPause: number;
  /** Mean ms of a request spent in those pauses. */
  meanPauseMs: number;
  /** What is left of the mean once the pauses are taken out: waiting for the database, for the event loop, and the request's own work. */
  meanOtherMs: number;
}

export interface TailFigures {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  /** p40–p60: the typical request. */
  middle: BandFigures;
  /** The slowest 1 % (at least one request). */
  slow: BandFigures;
  pauses: Record<'minor' | 'major', { count: number; totalMs: number; maxMs: number }>;
  /** Share of the run's wall time the main thread spent in scavenges and mark-compacts. */
  pausedShare: number;
}

/** Pauses that stop the main thread for their whole length (incremental marking steps are interleaved with JavaScript, and their entry spans both). */
const stopping = (pause: GcPause) => pause.kind === 'minor' || pause.kind === 'major';

/** The nearest-rank quantile of ascending values. */
const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] : NaN);

/** ms of the request `[at, at + ms]` during which the pauses (sorted by start, none overlapping) stopped the thread. */
function pausedWithin(at: number, ms: number, pauses: GcPause[], starts: number[]): number {
  const end = at + ms;
  // the last pause that starts before the request ends, then back while they still reach into it
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] < end) lo = mid + 1;
    else hi = mid;
  }
  let paused = 0;
  for (let i = lo - 1; i >= 0; i--) {
    const pause = pauses[i];
    if (pause.at + pause.ms <= at) {
      // pauses do not overlap one another, so the earlier ones end earlier still
      break;
    }
    paused += Math.min(end, pause.at + pause.ms) - Math.max(at, pause.at);
  }
  return paused;
}

function band(requests: Array<[number, number]>, pauses: GcPause[], starts: number[]): BandFigures {
  if (requests.length === 0) return { requests: 0, meanMs: NaN, withPause: NaN, meanPauseMs: NaN, meanOtherMs: NaN };
  let total = 0;
  let pausedTotal = 0;
  let withPause = 0;
  for (const [at, ms] of requests) {
    const paused = pausedWithin(at, ms, pauses, starts);
    total += ms;
    pausedTotal += paused;
    if (paused > 0) withPause++;
  }
  const n = requests.length;
  return { requests: n, meanMs: total / n, withPause: withPause / n, meanPauseMs: pausedTotal / n, meanOtherMs: (total - pausedTotal) / n };
}

/** Where the slowest requests' time went, against the typical request's: the GC pauses during each, and the rest. */
export function tailFigures(record: TailRecord): TailFigures {
  const pauses = record.pauses.filter(stopping).sort((a, b) => a.at - b.at);
  const starts = pauses.map((pause) => pause.at);
  const byLatency = [...record.requests].sort((a, b) => a[1] - b[1]);
  const latencies = byLatency.map(([, ms]) => ms);
  const n = byLatency.length;
  const p99Ms = quantile(latencies, 0.99);
  const middle = byLatency.slice(Math.floor(n * 0.4), Math.ceil(n * 0.6));
  const slow = byLatency.slice(n - Math.max(1, Math.ceil(n * 0.01)));
  const kindFigures = (kind: 'minor' | 'major') => {
    const own = pauses.filter((pause) => pause.kind === kind);
    return { count: own.length, totalMs: own.reduce((sum, pause) => sum + pause.ms, 0), maxMs: own.reduce((max, pause) => Math.max(max, pause.ms), 0) };
  };
  const first = record.requests.reduce((min, [at]) => Math.min(min, at), Infinity);
  const last = record.requests.reduce((max, [at, ms]) => Math.max(max, at + ms), -Infinity);
  const wall = n ? last - first : NaN;
  const paused = pauses.reduce((sum, pause) => sum + pause.ms, 0);
  return {
    requests: n,
    p50Ms: quantile(latencies, 0.5),
    p99Ms,
    p999Ms: quantile(latencies, 0.999),
    maxMs: latencies[n - 1] ?? NaN,
    middle: band(middle, pauses, starts),
    slow: band(slow, pauses, starts),
    pauses: { minor: kindFigures('minor'), major: kindFigures('major') },
    pausedShare: paused / wall,
  };
}
