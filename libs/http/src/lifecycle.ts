/** Shared between the server and `/readyz`: readiness turns 503 as soon as shutdown starts. */
export interface Lifecycle {
  shuttingDown: boolean;
  /**
   * True from the moment the port opens until the start-up steps (reaching the database, indexes,
   * bootstrap) have succeeded: `/readyz` answers 503 and every other route 503 database_unavailable.
   */
  starting: boolean;
}

export const createLifecycle = (): Lifecycle => ({ shuttingDown: false, starting: false });
