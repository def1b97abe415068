import { DEFAULT_RETRY_POLICY, nextDelayMs, retryAfterMs, RETRY_DELAYS_MS, scheduleSpanMs } from './retry-schedule';

describe('the retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h, over about three days, 12 attempts', () => {
    expect(RETRY_DELAYS_MS.slice(0, 5)).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000]);
    expect(RETRY_DELAYS_MS.length + 1).toBe(12);
    const days = scheduleSpanMs(DEFAULT_RETRY_POLICY) / 86_400_000;
    expect(days).toBeGreaterThan(2.5);
    expect(days).toBeLessThan(3.5);
  });

  it('draws each wait within ±20 % of the schedule, and gives up after the last', () => {
    expect(nextDelayMs(DEFAULT_RETRY_POLICY, 1, undefined, () => 0)).toBe(4_000);
    expect(nextDelayMs(DEFAULT_RETRY_POLICY, 1, undefined, () => 1)).toBe(6_000);
    expect(nextDelayMs(DEFAULT_RETRY_POLICY, 2, undefined, () => 0.5)).toBe(300_000);
    expect(nextDelayMs(DEFAULT_RETRY_POLICY, 11, undefined, () => 0.5)).toBe(36_000_000);
    expect(nextDelayMs(DEFAULT_RETRY_POLICY, 12)).toBeUndefined();
  });

  it("takes a receiver's Retry-After instead, within 1 s and 10 h, but not past the schedule's end", () => {
    expect(nextDelayMs(DEFAULT_RETRY_POLICY, 1, 120_000)).toBe(120_000);
    expect(nextDelayMs(DEFAULT_RETRY_POLICY, 3, 0)).toBe(1_000);
    expect(nextDelayMs(DEFAULT_RETRY_POLICY, 3, 86_400_000)).toBe(36_000_000);
    expect(nextDelayMs(DEFAULT_RETRY_POLICY, 12, 1_000)).toBeUndefined();
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(['7'], now)).toBe(7_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
  });
});
