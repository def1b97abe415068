import { ensureIndexes } from '@lib/mongo';
import { createLifecycle, createLogger, type ServiceDeps } from '@lib/http';
import { useTestDatabase } from './database/test-database';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { insideTests } from './inside-tests';

export interface TestServiceApp {
  readonly app: Express;
  readonly connection: Connection;
}

/** Model factories (`userModel`…) by the name a test reads them under (`ctx.User`). */
export type ModelFactories = Record<string, (connection: Connection) => unknown>;

/** A getter per factory, giving the model on the test file's connection. */
export type ModelGetters<M extends ModelFactories> = { readonly [K in keyof M]: ReturnType<M[K]> };

/** `base` with the properties of `more` added, getters kept as getters (a spread would call them). */
export function withMore<A extends object, B extends object>(base: A, more: B): A & B {
  return Object.defineProperties(base, Object.getOwnPropertyDescriptors(more)) as A & B;
}

/**
 * A service app on the calling test file's own database (indexes created), emptied before each
 * test: what supertest suites run against.
 */
export function useServiceApp<M extends ModelFactories = Record<never, never>>(
  createApp: (deps: ServiceDeps) => Express,
  options: { monitorCommands?: boolean; models?: M; ownServer?: boolean } = {},
): TestServiceApp & ModelGetters<M> {
  const db = useTestDatabase(options);
  let app: Express | undefined;
  beforeAll(async () => {
    app = createApp({ connection: db.connection, logger: createLogger('test', (process.env.TEST_LOG_LEVEL ?? 'silent')), lifecycle: createLifecycle() });
    await ensureIndexes(db.connection);
  });
  beforeEach(() => db.clear());
  const service: TestServiceApp = {
    get app() {
      return insideTests(app, 'the app');
    },
    get connection() {
      return db.connection;
    },
  };
  const models = Object.entries(options.models ?? {}).map(([name, model]) => [name, { get: () => model(db.connection), enumerable: true }] as const);
  return Object.defineProperties(service, Object.fromEntries(models)) as TestServiceApp & ModelGetters<M>;
}
