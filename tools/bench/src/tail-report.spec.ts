import { tailFigures, type GcPause, type TailRecord } from './tail-report';

const pause = (at: number, ms: number, kind: GcPause['kind'] = 'minor'): GcPause => ({ at, ms, kind });

describe('tailFigures', () => {
  // 99 requests of 1 ms, one every 10 ms, and one of 30 ms at t = 1000 that a 12 ms mark-compact and a 3 ms scavenge fall into
  const requests: Array<[number, number]> = Array.from({ length: 99 }, (_, i) => [i * 10, 1] as [number, number]);
  requests.push([1000, 30]);
  const record: TailRecord = {
    requests,
    pauses: [pause(1005, 12, 'major'), pause(1020, 3), pause(500.5, 0.25), pause(2000, 5), pause(1001, 40, 'incremental')],
  };
  const figures = tailFigures(record);

  it('finds the slow requests and how much of them the pauses took', () => {
    expect(figures.requests).toBe(100);
    expect(figures.maxMs).toBe(30);
    expect(figures.p99Ms).toBe(1);
    expect(figures.slow).toEqual({ requests: 1, meanMs: 30, withPause: 1, meanPauseMs: 15, meanOtherMs: 15 });
  });

  it('counts a pause that falls inside a typical request, and only the part inside it', () => {
    // the middle band (p40–p60) is 20 requests of 1 ms; the one at t = 500 holds 0.25 ms of a scavenge
    expect(figures.middle.requests).toBe(20);
    expect(figures.middle.meanMs).toBe(1);
    const inside = requests.filter(([at]) => at === 500).length;
    expect(inside).toBe(1);
    expect(figures.middle.meanPauseMs).toBeCloseTo(0.25 / 20, 6);
  });

  it('leaves incremental marking out (its entry spans the JavaScript between its steps) and sums each kind', () => {
    expect(figures.pauses.major).toEqual({ count: 1, totalMs: 12, maxMs: 12 });
    expect(figures.pauses.minor).toEqual({ count: 3, totalMs: 8.25, maxMs: 5 });
    // 20.25 ms paused over the 1,030 ms from the first arrival to the last answer
    expect(figures.pausedShare).toBeCloseTo(20.25 / 1030, 6);
  });

  it('reads an empty record as no figures rather than failing', () => {
    const empty = tailFigures({ requests: [], pauses: [] });
    expect(empty.requests).toBe(0);
    expect(empty.slow.requests).toBe(0);
    expect(Number.isNaN(empty.p99Ms)).toBe(true);
  });
});
