import { ensureIndexes } from '@lib/mongo';
import { createLifecycle, createLogger, type ServiceDeps } from '@lib/http';
import { useTestDatabase } from './database/test-database';
import type { Express } from 'express';
import type { Connection } from 'mongoose';

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
