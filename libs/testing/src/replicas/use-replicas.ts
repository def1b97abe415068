import { useTestDatabase, type TestDatabase } from '../database/test-database';
import { startReplicas, type ReplicaOptions, type Replicas } from './replicas';
import { insideTests } from '../inside-tests';

export interface UsedReplicas extends Replicas {
  /** The test file's connection to the database the replicas share (for arranging and checking stored data). */
  readonly db: TestDatabase;
}

/**
 * N replicas of an app for the calling test file, on the file's own database and embedded server
 * (the replicas run with the production time limits): started before its tests, stopped after them
 * (also when a test or the start-up fails).
 */
export function useReplicas(options: Omit<ReplicaOptions, 'dbName' | 'mongoUrl'>): UsedReplicas {
  const db = useTestDatabase({ ownServer: true });
  let replicas: Replicas | undefined;
  beforeAll(async () => {
    replicas = await startReplicas({ ...options, mongoUrl: db.serverUrl, dbName: db.dbName });
  }, 60_000);
  afterAll(async () => {
    await replicas?.stop();
  }, 30_000);
  const current = () => insideTests(replicas, 'the replicas');
  return {
    db,
    get size() {
      return current().size;
    },
    get urls() {
      return current().urls;
    },
    get mongoUrl() {
      return current().mongoUrl;
    },
    next: () => current().next(),
    nextUrl: () => current().nextUrl(),
    replica: (i) => current().replica(i),
    kill: (i, signal) => current().kill(i, signal),
    restart: (i) => current().restart(i),
    output: (i) => current().output(i),
    stop: () => current().stop(),
  };
}
