import { parseEnv, z } from '@lib/validation';
import { DEFAULT_DRAIN_TIMEOUT_MS } from './serve';

const millis = (max: number) =>
  z
    .string()
    .regex(/^\d{1,7}$/, 'must be a whole number of milliseconds')
    .transform(Number)
    .pipe(z.number().max(max, `must be at most ${max}`));

const shutdownEnv = z.object({
  SHUTDOWN_DELAY_MS: millis(60_000).default(0),
  SHUTDOWN_TIMEOUT_MS: millis(600_000).default(DEFAULT_DRAIN_TIMEOUT_MS),
});

export interface ShutdownSettings {
  /** After SIGTERM, /readyz answers 503 for this long while the server still serves. */
  readinessDelayMs: number;
  /** Then in-flight requests get this long to finish before their connections are cut. */
  drainTimeoutMs: number;
}

/** The shutdown timing every app takes from its environment (see the README's configuration table). */
export function readShutdownSettings(env: NodeJS.ProcessEnv): ShutdownSettings {
  const parsed = parseEnv(shutdownEnv, env);
  return { readinessDelayMs: parsed.SHUTDOWN_DELAY_MS, drainTimeoutMs: parsed.SHUTDOWN_TIMEOUT_MS };
}
