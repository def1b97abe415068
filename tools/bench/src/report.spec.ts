import { markdownTable, ratios, slopePerMinute } from './report';

const figures = (requestsPerSecond: number, cpuMsPerRequest: number, failures = 0) => ({ requestsPerSecond, cpuMsPerRequest, p50Ms: 1, p99Ms: 5, requests: 1000, failures, mainThreadCpuMsPerRequest: cpuMsPerRequest, fromUs: 0, toUs: 1 });

describe('bench report', () => {
  it('ratios are ours over the baseline, judged against the targets', () => {
    expect(ratios({ name: 'a', ours: figures(800, 0.3), baseline: figures(1000, 0.25) })).toEqual({ throughput: 0.8, cpu: expect.closeTo(1.2, 5), verdict: 'ok' });
    expect(ratios({ name: 'b', ours: figures(500, 0.6), baseline: figures(1000, 0.2) }).verdict).toBe('MISS: throughput 0.50 < 0.8, CPU 3.00 > 1.3');
    expect(ratios({ name: 'b', ours: figures(900, 0.27), baseline: figures(1000, 0.2) }).verdict).toBe('MISS: CPU 1.35 > 1.3');
    // a row's own target (POST contact's)
    expect(ratios({ name: 'crm POST contact', ours: figures(900, 0.3), baseline: figures(1000, 0.2), cpuRatioTarget: 1.6 }).verdict).toBe('ok');
    expect(ratios({ name: 'crm POST contact', ours: figures(900, 0.34), baseline: figures(1000, 0.2), cpuRatioTarget: 1.6 }).verdict).toBe('MISS: CPU 1.70 > 1.6');
    expect(ratios({ name: 'c', ours: figures(900, 0.2, 3), baseline: figures(1000, 0.2) }).verdict).toBe('MISS: 3 failed requests');
  });

  it('prints one table row per endpoint', () => {
    const table = markdownTable([
      { name: 'users GET /users', ours: figures(800, 0.3), baseline: figures(1000, 0.25), unbounded: figures(1200, 0.2) },
      { name: 'users GET /users', ours: figures(800, 0.3), baseline: figures(1000, 0.25) },
    ]);
    expect(table.split('\n')).toHaveLength(4);
    expect(table).toContain('| users GET /users | 800 | 1 | 5 | 0.30 | 1000 | 1 | 5 | 0.25 | 0.80 | 1.20 | ok | 1200, 0.20 | 1.50 |');
    expect(table).toContain('| users GET /users | 800 | 1 | 5 | 0.30 | 1000 | 1 | 5 | 0.25 | 0.80 | 1.20 | ok | n/a | n/a |');
  });

  it('the memory slope is MB per minute', () => {
    expect(slopePerMinute([[0, 100], [30_000, 101], [60_000, 102]])).toBeCloseTo(2);
    expect(slopePerMinute([[0, 100], [60_000, 100]])).toBe(0);
  });
});
