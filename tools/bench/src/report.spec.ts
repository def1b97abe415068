import type { Figures } from './measure';
import { markdownTable, median, medianFigures, ratios, slopePerMinute } from './report';

const figures = (requestsPerSecond: number, cpuMsPerRequest: number, failures = 0): Figures => ({ requestsPerSecond, cpuMsPerRequest, p50Ms: 1, p99Ms: 5, requests: 1000, failures, mainThreadCpuMsPerRequest: cpuMsPerRequest, fromUs: 0, toUs: 1 });
/** A row of one round. */
const row = (name: string, ours: Figures, baseline: Figures, extra: { unbounded?: Figures; cpuRatioTarget?: number } = {}) => ({
  name,
  rounds: [{ ours, baseline, unbounded: extra.unbounded }],
  cpuRatioTarget: extra.cpuRatioTarget,
});

describe('bench report', () => {
  it('ratios are ours over the baseline, judged against the targets', () => {
    expect(ratios(row('a', figures(800, 0.3), figures(1000, 0.25)))).toEqual({ throughput: 0.8, cpu: expect.closeTo(1.2, 5), verdict: 'ok' });
    expect(ratios(row('b', figures(500, 0.6), figures(1000, 0.2))).verdict).toBe('MISS: throughput 0.50 < 0.8, CPU 3.00 > 1.3');
    expect(ratios(row('b', figures(900, 0.27), figures(1000, 0.2))).verdict).toBe('MISS: CPU 1.35 > 1.3');
    // a row's own target (POST contact's)
    expect(ratios(row('crm POST contact', figures(900, 0.3), figures(1000, 0.2), { cpuRatioTarget: 1.6 })).verdict).toBe('ok');
    expect(ratios(row('crm POST contact', figures(900, 0.34), figures(1000, 0.2), { cpuRatioTarget: 1.6 })).verdict).toBe('MISS: CPU 1.70 > 1.6');
    expect(ratios(row('c', figures(900, 0.2, 3), figures(1000, 0.2))).verdict).toBe('MISS: 3 failed requests');
  });

  it('prints one table row per endpoint', () => {
    const table = markdownTable([
      row('users GET /users', figures(800, 0.3), figures(1000, 0.25), { unbounded: figures(1200, 0.2) }),
      row('users GET /users', figures(800, 0.3), figures(1000, 0.25)),
    ]);
    expect(table.split('\n')).toHaveLength(4);
    expect(table).toContain('| users GET /users | 800 | 1 | 5 | 0.30 | 1000 | 1 | 5 | 0.25 | 0.80 | 1.20 | 1.20 | ok | 1200, 0.20 | 1.50 |');
    expect(table).toContain('| users GET /users | 800 | 1 | 5 | 0.30 | 1000 | 1 | 5 | 0.25 | 0.80 | 1.20 | 1.20 | ok | n/a | n/a |');
  });

  it('a row of several rounds is judged by the median of its rounds\' ratios, each round ours against the baseline run beside it', () => {
    // the machine got busier each round: both sides' CPU rose, the ratio of each round did not follow
    const rounds = [
      { ours: figures(600, 0.75), baseline: figures(1000, 0.5) }, // 1.50: ours still compiling its hot paths
      { ours: figures(900, 0.72), baseline: figures(1000, 0.6) }, // 1.20
      { ours: figures(850, 1.0), baseline: figures(1000, 0.8) }, // 1.25
    ];
    const judged = ratios({ name: 'news', rounds });
    expect(judged.cpu).toBeCloseTo(1.25, 5);
    expect(judged.throughput).toBeCloseTo(0.85, 5);
    expect(judged.verdict).toBe('ok');
    expect(ratios({ name: 'b', rounds: [rounds[0], rounds[0], rounds[1]] }).verdict).toBe('MISS: throughput 0.60 < 0.8, CPU 1.50 > 1.3');
    expect(ratios({ name: 'c', rounds: [rounds[1], { ...rounds[2], ours: figures(850, 1.0, 2) }] }).verdict).toBe('MISS: 2 failed requests');
    const table = markdownTable([{ name: 'news', rounds }]);
    expect(table).toContain('| news | 850 | 1 | 5 | 0.75 | 1000 | 1 | 5 | 0.60 | 0.85 | 1.25 | 1.50 1.20 1.25 | ok | n/a | n/a |');
  });

  it('a side\'s figures over the rounds are the median of each measure, with the requests and failures summed', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    const summed = medianFigures([figures(700, 0.5), figures(900, 0.3, 1), { ...figures(800, 0.4), p99Ms: 9 }]);
    expect(summed).toMatchObject({ requestsPerSecond: 800, cpuMsPerRequest: 0.4, p99Ms: 5, requests: 3000, failures: 1 });
  });

  it('the memory slope is MB per minute', () => {
    expect(slopePerMinute([[0, 100], [30_000, 101], [60_000, 102]])).toBeCloseTo(2);
    expect(slopePerMinute([[0, 100], [60_000, 100]])).toBe(0);
  });
});
