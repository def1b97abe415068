import { useServiceApp } from '@lib/testing';
import { createApp } from '../src/app';
import { userModel } from '../src/users/user.model';

export const TEST_CURSOR_SECRET = 'test-cursor-secret-0123456789';

/** A users app on this test file's own database, emptied before each test. */
export function setupUsersApp(options: { apiKey?: string; monitorCommands?: boolean } = {}) {
  return useServiceApp((deps) => createApp({ ...deps, apiKey: options.apiKey, cursorSecret: TEST_CURSOR_SECRET }), {
    monitorCommands: options.monitorCommands,
    models: { User: userModel },
  });
}
