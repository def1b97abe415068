import type { RunServiceOptions } from '@lib/http';
import { createApp } from './app';
import type { UsersConfig } from './config';

/** How `main.ts` runs users-api (start-up tests run the same). */
export function usersService(config: UsersConfig): RunServiceOptions {
  return {
    name: 'users-api',
    port: config.port,
    logLevel: config.logLevel,
    database: config.database,
    warnings: config.warnings,
    createApp: (deps) => createApp({ ...deps, apiKey: config.apiKey, cursorSecret: config.cursorSecret }),
  };
}
