import { loadConfig } from '../src/config';

describe('loadConfig', () => {
  it('has development defaults, and prints the cursor secret default it uses', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ production: false, port: 3000, database: { dbName: 'users' } });
    expect(config.cursorSecret).toBe('users-api-development-cursor-secret');
    expect(config.warnings).toEqual(['development defaults in use: USERS_CURSOR_SECRET=users-api-development-cursor-secret']);
    expect(loadConfig({ USERS_CURSOR_SECRET: 's'.repeat(16) })).toMatchObject({ cursorSecret: 's'.repeat(16), warnings: [] });
  });

  // CONTRACT.md: development defaults are never used with NODE_ENV=production; a missing secret stops the process
  it('stops in production without USERS_CURSOR_SECRET, naming it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', USERS_API_KEY: 'k'.repeat(16) })).toThrow(/USERS_CURSOR_SECRET: is required when NODE_ENV=production/);
  });

  it('warns in production when writes are open', () => {
    expect(loadConfig({ NODE_ENV: 'production', USERS_CURSOR_SECRET: 's'.repeat(16) }).warnings).toEqual([expect.stringContaining('USERS_API_KEY is not set')]);
    expect(loadConfig({ NODE_ENV: 'production', USERS_API_KEY: 'k'.repeat(16), USERS_CURSOR_SECRET: 's'.repeat(16) }).warnings).toEqual([]);
  });

  it('uses the database named in the URL', () => {
    expect(loadConfig({ USERS_MONGO_URL: 'mongodb://db:27017/people' }).database).toEqual({ url: 'mongodb://db:27017/people', dbName: 'people' });
  });

  it('fails on a bad port', () => {
    expect(() => loadConfig({ PORT: '99999' })).toThrow(/PORT/);
  });
});
