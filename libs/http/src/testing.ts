import { ensureIndexes } from '@lib/mongo';
import { useTestDatabase } from '@lib/mongo/testing';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { createLifecycle } from './lifecycle';
import { createLogger } from './logger';
import type { ServiceDeps } from './run-service';

export interface TestServiceApp {
  readonly app: Express;
  readonly connection: Connection;
}

/**
 * A service app on the calling test file's own database (indexes created), emptied before each
 * test: what supertest suites run against.
 */
export function useServiceApp(createApp: (deps: ServiceDeps) => Express, options: { monitorCommands?: boolean } = {}): TestServiceApp {
  const db = useTestDatabase(options);
  let app: Express | undefined;
  beforeAll(async () => {
    app = createApp({ connection: db.connection, logger: createLogger('test', (process.env.TEST_LOG_LEVEL ?? 'silent')), lifecycle: createLifecycle() });
    await ensureIndexes(db.connection);
  });
  beforeEach(() => db.clear());
  return {
    get app() {
      if (!app) throw new Error('the app is only available inside tests');
      return app;
    },
    get connection() {
      return db.connection;
    },
  };
}

export { hostileInputSweep, type HostileInputOptions } from './sweeps/hostile-input';
export { securitySweep, type SecuritySweepTarget } from './sweeps/security-sweep';
export { roleSweep, type RoleSweepTarget } from './sweeps/role-sweep';
export { crossTenantSweep, type TenantFixture, type TenantSweepTarget } from './sweeps/tenant-sweep';
export type { SweepTarget } from './sweeps/sweep-target';
export { runLoad, serverErrors, type LoadOptions, type LoadResult } from './resilience/load';
export { expectStartsOnceDatabaseAnswers, type StartUnreachableCase } from './resilience/start-unreachable';
export { BUSY_MACHINE_SLACK_MS, expectOutageAnswered, loadThroughOutage, type OutageRun, type StoppableDatabase } from './resilience/outage';
export { listenLoopback, sendRaw, type RawRequest, type RawResponse } from './sweeps/raw-client';
export { bundleApp, bundleProject, startAppProcess, type AppProcess } from './resilience/app-process';
export { startReplicas, databaseUrl, type Replicas, type ReplicaOptions, type ExitStatus } from './replicas/replicas';
export { useReplicas, type UsedReplicas } from './replicas/use-replicas';
export { runScript, type ScriptResult } from './replicas/run-script';
export { bundleEntry } from './replicas/bundle';
export { freePort } from './free-port';
