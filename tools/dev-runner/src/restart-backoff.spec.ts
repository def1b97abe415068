import { DEFAULT_RESTART_POLICY, RestartBackoff, formatDelay } from './restart-backoff';

describe('RestartBackoff', () => {
  it('doubles the delay from 1 s for each exit in a row, up to 30 s', () => {
    const backoff = new RestartBackoff(DEFAULT_RESTART_POLICY);
    const delays = Array.from({ length: 8 }, () => backoff.next(500));
    expect(delays.map((r) => r.delayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(delays.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('starts over after a child ran for 30 s', () => {
    const backoff = new RestartBackoff(DEFAULT_RESTART_POLICY);
    backoff.next(100);
    backoff.next(100);
    expect(backoff.next(29_999)).toEqual({ delayMs: 4_000, attempt: 3 });
    expect(backoff.next(30_000)).toEqual({ delayMs: 1_000, attempt: 1 });
    expect(backoff.next(10)).toEqual({ delayMs: 2_000, attempt: 2 });
  });

  it('stays at the cap however long it keeps failing', () => {
    const backoff = new RestartBackoff({ initialDelayMs: 1, maxDelayMs: 50, resetAfterMs: 1_000 });
    for (let i = 0; i < 2_000; i++) backoff.next(0);
    expect(backoff.next(0)).toEqual({ delayMs: 50, attempt: 2_001 });
  });

  it('prints delays in seconds', () => {
    expect([formatDelay(1_000), formatDelay(250), formatDelay(30_000)]).toEqual(['1 s', '0.25 s', '30 s']);
  });
});
