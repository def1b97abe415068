import type { Figures } from './measure';

/** The targets: throughput at least 0.7 of the baseline, CPU per request at most 1.5 times. */
export const TARGETS = { throughputRatio: 0.7, cpuRatio: 1.5 };

export interface Row {
  name: string;
  ours: Figures;
  baseline: Figures;
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

export function ratios(row: Row) {
  const throughput = row.ours.requestsPerSecond / row.baseline.requestsPerSecond;
  const cpu = row.ours.cpuMsPerRequest / row.baseline.cpuMsPerRequest;
  const misses = [
    ...(throughput < TARGETS.throughputRatio ? [`throughput ${fixed(throughput, 2)} < ${TARGETS.throughputRatio}`] : []),
    ...(cpu > TARGETS.cpuRatio ? [`CPU ${fixed(cpu, 2)} > ${TARGETS.cpuRatio}`] : []),
    ...(row.ours.failures ? [`${row.ours.failures} failed requests`] : []),
  ];
  return { throughput, cpu, verdict: misses.length ? `MISS: ${misses.join(', ')}` : 'ok' };
}

/** The results as a Markdown table (what docs/BENCHMARKS.md holds). */
export function markdownTable(rows: Row[]): string {
  const lines = [
    '| endpoint | ours req/s | p50 ms | p99 ms | CPU ms/req | baseline req/s | p50 ms | p99 ms | CPU ms/req | throughput ratio | CPU ratio | verdict |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const { throughput, cpu, verdict } = ratios(row);
    const { ours, baseline } = row;
    lines.push(
      `| ${row.name} | ${fixed(ours.requestsPerSecond, 0)} | ${ours.p50Ms} | ${ours.p99Ms} | ${fixed(ours.cpuMsPerRequest, 2)} | ${fixed(baseline.requestsPerSecond, 0)} | ${baseline.p50Ms} | ${baseline.p99Ms} | ${fixed(baseline.cpuMsPerRequest, 2)} | ${fixed(throughput, 2)} | ${fixed(cpu, 2)} | ${verdict} |`,
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
