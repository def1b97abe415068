export interface RestartPolicy {
  /** Wait before the first restart; doubled for each further exit in a row. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** A child that ran at least this long before it died counts as healthy: its back-off starts over. */
  resetAfterMs: number;
}

/** 1 s, 2 s, 4 s, … up to 30 s; back to 1 s once a child has run for 30 s. */
export const DEFAULT_RESTART_POLICY: RestartPolicy = { initialDelayMs: 1_000, maxDelayMs: 30_000, resetAfterMs: 30_000 };

export interface Restart {
  delayMs: number;
  /** Restarts in a row without a healthy run, this one included. */
  attempt: number;
}

/** The exponential back-off of one supervised child. */
export class RestartBackoff {
  private attempts = 0;

  constructor(private readonly policy: RestartPolicy) {}

  /** The restart after an exit, given how long the child ran. */
  next(ranMs: number): Restart {
    if (ranMs >= this.policy.resetAfterMs) this.attempts = 0;
    this.attempts += 1;
    const delayMs = Math.min(this.policy.maxDelayMs, this.policy.initialDelayMs * 2 ** Math.min(this.attempts - 1, 30));
    return { delayMs, attempt: this.attempts };
  }
}

/** `1 s`, `0.25 s`: a delay as the runner prints it. */
export const formatDelay = (ms: number) => `${Number((ms / 1000).toFixed(2))} s`;
