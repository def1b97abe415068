import type { Figures } from './measure';

/** Issue 27's targets: throughput at least 0.8 of the baseline, CPU per request at most 1.3 times (a row may set its own CPU target). */
export const TARGETS = { throughputRatio: 0.8, cpuRatio: 1.3 };

/** One round of a row: each side driven once, one after the other. */
export interface Round {
  ours: Figures;
  /** The yardstick: the baseline under the apps' own Node flags (the same memory budget). */
  baseline: Figures;
  /** The same baseline under Node's defaults (no heap limits), for reference. */
  unbounded?: Figures;
}

export interface Row {
  name: string;
  /** The row's rounds, in the order they ran (at least one). */
  rounds: Round[];
  /** The row's own CPU ratio target (endpoints.ts), else TARGETS.cpuRatio. */
  cpuRatioTarget?: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A side's figures over the rounds: the median of each measure; requests and failures summed. */
export function medianFigures(runs: Figures[]): Figures {
  const of = (pick: (f: Figures) => number) => median(runs.map(pick));
  return {
    requestsPerSecond: of((f) => f.requestsPerSecond),
    p50Ms: of((f) => f.p50Ms),
    p99Ms: of((f) => f.p99Ms),
    cpuMsPerRequest: of((f) => f.cpuMsPerRequest),
    mainThreadCpuMsPerRequest: of((f) => f.mainThreadCpuMsPerRequest),
    requests: runs.reduce((sum, f) => sum + f.requests, 0),
    failures: runs.reduce((sum, f) => sum + f.failures, 0),
    fromUs: runs[0].fromUs,
    toUs: runs[runs.length - 1].toUs,
  };
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** Ours over the baseline in each round: the two ran back to back, under about the same load. */
export const cpuRatioOf = (round: Round) => round.ours.cpuMsPerRequest / round.baseline.cpuMsPerRequest;

/**
 * The row's ratios: the median over its rounds of each round's ratio (ours against the baseline run
 * right beside it, so a change of the machine's load between rounds cancels out), judged against
 * the targets.
 */
export function ratios(row: Row) {
  const throughput = median(row.rounds.map((round) => round.ours.requestsPerSecond / round.baseline.requestsPerSecond));
  const cpu = median(row.rounds.map(cpuRatioOf));
  const failures = row.rounds.reduce((sum, round) => sum + round.ours.failures, 0);
  const cpuTarget = row.cpuRatioTarget ?? TARGETS.cpuRatio;
  const misses = [
    ...(throughput < TARGETS.throughputRatio ? [`throughput ${fixed(throughput, 2)} < ${TARGETS.throughputRatio}`] : []),
    ...(cpu > cpuTarget ? [`CPU ${fixed(cpu, 2)} > ${cpuTarget}`] : []),
    ...(failures ? [`${failures} failed requests`] : []),
  ];
  return { throughput, cpu, verdict: misses.length ? `MISS: ${misses.join(', ')}` : 'ok' };
}

/** The last two cells: the baseline at Node's defaults (median figures) and ours against it, round by round's median. */
function referenceCells(row: Row): string {
  const rounds = row.rounds.flatMap((round) => (round.unbounded ? [{ ...round, baseline: round.unbounded }] : []));
  if (!rounds.length) return 'n/a | n/a';
  const unbounded = medianFigures(rounds.map((round) => round.baseline));
  return `${fixed(unbounded.requestsPerSecond, 0)}, ${fixed(unbounded.cpuMsPerRequest, 2)} | ${fixed(median(rounds.map(cpuRatioOf)), 2)}`;
}

/** The results as a Markdown table (what docs/BENCHMARKS.md holds): each side's median figures over the rounds, the ratios, and the CPU ratio of each round. */
export function markdownTable(rows: Row[]): string {
  const lines = [
    "| endpoint | ours req/s | p50 ms | p99 ms | CPU ms/req | baseline req/s | p50 ms | p99 ms | CPU ms/req | throughput ratio | CPU ratio | CPU ratio by round | verdict | baseline at Node's defaults: req/s, CPU ms/req | CPU ratio to it |",
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|',
  ];
  for (const row of rows) {
    const { throughput, cpu, verdict } = ratios(row);
    const ours = medianFigures(row.rounds.map((round) => round.ours));
    const baseline = medianFigures(row.rounds.map((round) => round.baseline));
    const reference = referenceCells(row);
    lines.push(
      `| ${row.name} | ${fixed(ours.requestsPerSecond, 0)} | ${ours.p50Ms} | ${ours.p99Ms} | ${fixed(ours.cpuMsPerRequest, 2)} | ${fixed(baseline.requestsPerSecond, 0)} | ${baseline.p50Ms} | ${baseline.p99Ms} | ${fixed(baseline.cpuMsPerRequest, 2)} | ${fixed(throughput, 2)} | ${fixed(cpu, 2)} | ${row.rounds.map((round) => fixed(cpuRatioOf(round), 2)).join(' ')} | ${verdict} | ${reference} |`,
    );
  }
  return lines.join('\n');
}

/** Least-squares slope of (t in ms, value) points, per minute. */
export function slopePerMinute(points: Array<[number, number]>): number {
  if (points.length < 2) return NaN;
  const n = points.length;
  const mt = points.reduce((s, [t]) => s + t, 0) / n;
  const mv = points.reduce((s, [, v]) => s + v, 0) / n;
  const num = points.reduce((s, [t, v]) => s + (t - mt) * (v - mv), 0);
  const den = points.reduce((s, [t]) => s + (t - mt) ** 2, 0);
  return den ? (num / den) * 60_000 : NaN;
}
