import { loadConfig } from '../src/config';

describe('loadConfig', () => {
  it('has development defaults and no warnings', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ production: false, port: 3000, database: { dbName: 'users' }, warnings: [] });
    expect(config.cursorSecret.length).toBeGreaterThanOrEqual(16);
  });

  it('warns in production when writes are open or cursors use the development secret', () => {
    const config = loadConfig({ NODE_ENV: 'production' });
    expect(config.warnings).toEqual([expect.stringContaining('USERS_API_KEY'), expect.stringContaining('USERS_CURSOR_SECRET')]);
    expect(loadConfig({ NODE_ENV: 'production', USERS_API_KEY: 'k'.repeat(16), USERS_CURSOR_SECRET: 's'.repeat(16) }).warnings).toEqual([]);
  });

  it('uses the database named in the URL', () => {
    expect(loadConfig({ USERS_MONGO_URL: 'mongodb://db:27017/people' }).database).toEqual({ url: 'mongodb://db:27017/people', dbName: 'people' });
  });

  it('fails on a bad port', () => {
    expect(() => loadConfig({ PORT: '99999' })).toThrow(/PORT/);
  });
});
