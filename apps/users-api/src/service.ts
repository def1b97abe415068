import { runOptionsFromConfig, type RunServiceOptions } from '@lib/http';
import { createApp } from './app';
import type { UsersConfig } from './config';

/** How `main.ts` runs users-api (start-up tests run the same). */
export function usersService(config: UsersConfig): RunServiceOptions {
  return {
    ...runOptionsFromConfig('users-api', config),
    warnings: config.warnings,
    createApp: (deps) => createApp({ ...deps, apiKey: config.apiKey, cursorSecret: config.cursorSecret }),
  };
}
