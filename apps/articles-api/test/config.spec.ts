import { loadConfig } from '../src/config';

describe('loadConfig', () => {
  it('has development defaults', () => {
    expect(loadConfig({})).toEqual({
      production: false,
      port: 3000,
      bindAddress: '127.0.0.1',
      trustedProxies: expect.objectContaining({ description: 'none' }),
      logLevel: 'info',
      apiKey: undefined,
      database: { dbName: 'articles' },
    });
  });

  const KEY = '3f9a1c7e5b2d8046a1c3e5f7092b4d6f8e0a2c4b';

  it('reads port, key and the per-app database URL, which beats MONGO_URL', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '8081',
      ARTICLES_API_KEY: KEY,
      MONGO_URL: 'mongodb://shared:27017',
      ARTICLES_MONGO_URL: 'mongodb://own:27017',
    });
    expect(config).toMatchObject({ production: true, port: 8081, apiKey: KEY, database: { url: 'mongodb://own:27017', dbName: 'articles' } });
  });

  it('refuses a placeholder key in production, naming it, and takes it elsewhere', () => {
    for (const placeholder of ['change-me-to-a-long-random-key', 'k'.repeat(40), 'a-key-of-only-twenty-chars']) {
      expect(() => loadConfig({ NODE_ENV: 'production', ARTICLES_API_KEY: placeholder })).toThrow(/NODE_ENV=production[\s\S]*ARTICLES_API_KEY: /);
      expect(loadConfig({ ARTICLES_API_KEY: placeholder }).apiKey).toBe(placeholder);
    }
    expect(() => loadConfig({ NODE_ENV: 'production', ARTICLES_API_KEY: 'change-me-to-a-long-random-key' })).toThrow('ARTICLES_API_KEY: looks like a placeholder (contains "change-me")');
  });

  it('fails with every bad variable named', () => {
    expect(() => loadConfig({ PORT: 'http', ARTICLES_API_KEY: 'short', LOG_LEVEL: 'loud' })).toThrow(
      /PORT: must be a port number[\s\S]*LOG_LEVEL[\s\S]*ARTICLES_API_KEY: must be at least 16 characters/,
    );
  });
});
