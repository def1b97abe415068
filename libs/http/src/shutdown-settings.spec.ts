import { readShutdownSettings } from './shutdown-settings';

describe('readShutdownSettings', () => {
  it('defaults to no readiness delay and a 10 s drain', () => {
    expect(readShutdownSettings({})).toEqual({ readinessDelayMs: 0, drainTimeoutMs: 10_000 });
  });

  it('reads both variables', () => {
    expect(readShutdownSettings({ SHUTDOWN_DELAY_MS: '5000', SHUTDOWN_TIMEOUT_MS: '20000' })).toEqual({ readinessDelayMs: 5_000, drainTimeoutMs: 20_000 });
  });

  it('names every bad variable', () => {
    expect(() => readShutdownSettings({ SHUTDOWN_DELAY_MS: '5s', SHUTDOWN_TIMEOUT_MS: '900000' })).toThrow(
      'Invalid configuration:\n  SHUTDOWN_DELAY_MS: must be a whole number of milliseconds\n  SHUTDOWN_TIMEOUT_MS: must be at most 600000',
    );
  });
});
