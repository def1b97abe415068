export const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
export type ShutdownSignal = (typeof SHUTDOWN_SIGNALS)[number];

/**
 * For specs of code that registers SIGTERM/SIGINT listeners (serve, runService): after each test,
 * runs `stop` (shutting the test's server down), then takes off every such listener the test added.
 * `listenersBefore(signal)` is how many there were when the test began.
 */
export function useSignalListenerCleanup(stop: () => Promise<unknown> | undefined): { listenersBefore(signal: ShutdownSignal): number } {
  let before: Record<string, NodeJS.SignalsListener[]>;

  beforeEach(() => {
    before = Object.fromEntries(SHUTDOWN_SIGNALS.map((s) => [s, process.listeners(s)]));
  });

  afterEach(async () => {
    await stop();
    for (const s of SHUTDOWN_SIGNALS) for (const l of process.listeners(s)) if (!before[s].includes(l)) process.removeListener(s, l);
  });

  return { listenersBefore: (signal) => before[signal].length };
}
