import { loadConfig } from '../src/config';

describe('loadConfig', () => {
  it('has development defaults', () => {
    expect(loadConfig({})).toEqual({ production: false, port: 3000, logLevel: 'info', apiKey: undefined, database: { dbName: 'articles' } });
  });

  it('reads port, key and the per-app database URL, which beats MONGO_URL', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '8081',
      ARTICLES_API_KEY: 'k'.repeat(16),
      MONGO_URL: 'mongodb://shared:27017',
      ARTICLES_MONGO_URL: 'mongodb://own:27017',
    });
    expect(config).toMatchObject({ production: true, port: 8081, apiKey: 'k'.repeat(16), database: { url: 'mongodb://own:27017', dbName: 'articles' } });
  });

  it('fails with every bad variable named', () => {
    expect(() => loadConfig({ PORT: 'http', ARTICLES_API_KEY: 'short', LOG_LEVEL: 'loud' })).toThrow(
      /PORT: must be a port number[\s\S]*LOG_LEVEL[\s\S]*ARTICLES_API_KEY: must be at least 16 characters/,
    );
  });
});
