import type { Figures } from './measure';

/** Issue 27's targets: throughput at least 0.8 of the baseline, CPU per request at most 1.3 times (a row may set its own CPU target). */
export const TARGETS = { throughputRatio: 0.8, cpuRatio: 1.3 };

export interface Row {
  name: string;
  ours: Figures;
  /** The yardstick: the baseline under the apps' own Node flags (the same memory budget). */
  baseline: Figures;
  /** The same baseline under Node's defaults (no heap limits), for reference. */
  unbounded?: Figures;
  /** The row's own CPU ratio target (endpoints.ts), else TARGETS.cpuRatio. */
  cpuRatioTarget?: number;
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

export function ratios(row: Row) {
  const throughput = row.ours.requestsPerSecond / row.baseline.requestsPerSecond;
  const cpu = row.ours.cpuMsPerRequest / row.baseline.cpuMsPerRequest;
  const cpuTarget = row.cpuRatioTarget ?? TARGETS.cpuRatio;
  const misses = [
    ...(throughput < TARGETS.throughputRatio ? [`throughput ${fixed(throughput, 2)} < ${TARGETS.throughputRatio}`] : []),
    ...(cpu > cpuTarget ? [`CPU ${fixed(cpu, 2)} > ${cpuTarget}`] : []),
    ...(row.ours.failures ? [`${row.ours.failures} failed requests`] : []),
  ];
  return { throughput, cpu, verdict: misses.length ? `MISS: ${misses.join(', ')}` : 'ok' };
}

/** The results as a Markdown table (what docs/BENCHMARKS.md holds). */
export function markdownTable(rows: Row[]): string {
  const lines = [
    '| endpoint | ours req/s | p50 ms | p99 ms | CPU ms/req | baseline req/s | p50 ms | p99 ms | CPU ms/req | throughput ratio | CPU ratio | verdict | baseline at Node\'s defaults: req/s, CPU ms/req | CPU ratio to it |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|',
  ];
  for (const row of rows) {
    const { throughput, cpu, verdict } = ratios(row);
    const { ours, baseline, unbounded } = row;
    const reference = unbounded
      ? `${fixed(unbounded.requestsPerSecond, 0)}, ${fixed(unbounded.cpuMsPerRequest, 2)} | ${fixed(ours.cpuMsPerRequest / unbounded.cpuMsPerRequest, 2)}`
      : 'n/a | n/a';
    lines.push(
      `| ${row.name} | ${fixed(ours.requestsPerSecond, 0)} | ${ours.p50Ms} | ${ours.p99Ms} | ${fixed(ours.cpuMsPerRequest, 2)} | ${fixed(baseline.requestsPerSecond, 0)} | ${baseline.p50Ms} | ${baseline.p99Ms} | ${fixed(baseline.cpuMsPerRequest, 2)} | ${fixed(throughput, 2)} | ${fixed(cpu, 2)} | ${verdict} | ${reference} |`,
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
