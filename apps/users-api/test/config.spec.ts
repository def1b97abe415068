import { loadConfig } from '../src/config';

const KEY = '5e7a9c1b3d2f4e6a8c0b1d3f5a7c9e2b4d6f8a0c';
const CURSOR_SECRET = 'b8d0f2a4c6e81357bdf02468ace13579fdb97531';

describe('loadConfig', () => {
  it('has development defaults, and prints the cursor secret default it uses', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ production: false, port: 3000, database: { dbName: 'users' } });
    expect(config.cursorSecret).toBe('users-api-development-cursor-secret');
    expect(config.warnings).toEqual(['development defaults in use: USERS_CURSOR_SECRET=users-api-development-cursor-secret']);
    expect(loadConfig({ USERS_CURSOR_SECRET: 's'.repeat(16) })).toMatchObject({ cursorSecret: 's'.repeat(16), warnings: [] });
  });

  // README.md, Configuration: development defaults are never used with NODE_ENV=production; a missing secret stops the process
  it('stops in production without USERS_CURSOR_SECRET, naming it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', USERS_API_KEY: KEY })).toThrow(/USERS_CURSOR_SECRET: is required when NODE_ENV=production/);
  });

  it('stops in production on a placeholder or development secret, naming it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', USERS_CURSOR_SECRET: 'users-api-development-cursor-secret' })).toThrow(
      'USERS_CURSOR_SECRET: is a public development value',
    );
    expect(() => loadConfig({ NODE_ENV: 'production', USERS_CURSOR_SECRET: CURSOR_SECRET, USERS_API_KEY: 'change-me-to-a-long-random-key' })).toThrow(
      'USERS_API_KEY: looks like a placeholder (contains "change-me")',
    );
    expect(() => loadConfig({ NODE_ENV: 'production', USERS_CURSOR_SECRET: 'placeholder-placeholder-placeholder' })).toThrow(/USERS_CURSOR_SECRET: looks like a placeholder/);
    expect(loadConfig({ USERS_CURSOR_SECRET: 'change-me-to-a-long-random-secret' }).cursorSecret).toBe('change-me-to-a-long-random-secret');
  });

  it('warns in production when writes are open', () => {
    expect(loadConfig({ NODE_ENV: 'production', USERS_CURSOR_SECRET: CURSOR_SECRET }).warnings).toEqual([expect.stringContaining('USERS_API_KEY is not set')]);
    expect(loadConfig({ NODE_ENV: 'production', USERS_API_KEY: KEY, USERS_CURSOR_SECRET: CURSOR_SECRET }).warnings).toEqual([]);
  });

  it('uses the database named in the URL', () => {
    expect(loadConfig({ USERS_MONGO_URL: 'mongodb://db:27017/people' }).database).toEqual({ url: 'mongodb://db:27017/people', dbName: 'people' });
  });

  it('fails on a bad port', () => {
    expect(() => loadConfig({ PORT: '99999' })).toThrow(/PORT/);
  });
});
