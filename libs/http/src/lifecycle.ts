/** Shared between the server and `/readyz`: readiness turns 503 as soon as shutdown starts. */
export interface Lifecycle {
  shuttingDown: boolean;
}

export const createLifecycle = (): Lifecycle => ({ shuttingDown: false });
