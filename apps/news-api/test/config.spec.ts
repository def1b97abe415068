import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';

const STRONG = { MASTER_KEY: 'm'.repeat(16), JWT_SECRET: 's'.repeat(32) };

describe('loadConfig', () => {
  it('uses printed development defaults outside production', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ production: false, port: 3000, database: { dbName: 'news' }, jwt: { expiresInSeconds: 3600 }, syncIntervalSeconds: 1800, syncLeaseSeconds: 30 });
    expect(config.defaultsUsed).toEqual([expect.stringMatching(/^MASTER_KEY=/), expect.stringMatching(/^JWT_SECRET=/)]);
    expect(config.publishers.length).toBeGreaterThanOrEqual(5);
    expect(config.publishers.every((p) => p.feeds.every((f) => f.startsWith('https://')))).toBe(true);
  });

  it('stops in production when a secret is missing, naming it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/MASTER_KEY: is required when NODE_ENV=production[\s\S]*JWT_SECRET: is required/);
    expect(() => loadConfig({ NODE_ENV: 'production', MASTER_KEY: 'm'.repeat(16) })).toThrow(/JWT_SECRET/);
    expect(loadConfig({ NODE_ENV: 'production', ...STRONG }).defaultsUsed).toEqual([]);
  });

  it('reads durations and the per-app database URL', () => {
    const config = loadConfig({ ...STRONG, JWT_EXPIRES_IN: '15m', NEWS_SYNC_INTERVAL: '0', NEWS_SYNC_LEASE: '2m', NEWS_MONGO_URL: 'mongodb://db:27017/press' });
    expect(config).toMatchObject({ jwt: { expiresInSeconds: 900 }, syncIntervalSeconds: 0, syncLeaseSeconds: 120, database: { dbName: 'press' }, masterKey: STRONG.MASTER_KEY });
    expect(loadConfig({ JWT_EXPIRES_IN: '7d' }).jwt.expiresInSeconds).toBe(604800);
    expect(loadConfig({ JWT_EXPIRES_IN: '90' }).jwt.expiresInSeconds).toBe(90);
  });

  it('fails with every bad variable named', () => {
    expect(() => loadConfig({ MASTER_KEY: 'short', JWT_SECRET: 'short', JWT_EXPIRES_IN: 'soon', NEWS_SYNC_INTERVAL: '-1' })).toThrow(
      /MASTER_KEY: must be at least 16[\s\S]*JWT_SECRET: must be at least 32[\s\S]*JWT_EXPIRES_IN: must be a duration[\s\S]*NEWS_SYNC_INTERVAL/,
    );
    expect(() => loadConfig({ JWT_EXPIRES_IN: '0s' })).toThrow(/JWT_EXPIRES_IN: must be longer than 0/);
  });

  it('reads the publishers from NEWS_FEEDS and names what is wrong in it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'news-feeds-'));
    const good = path.join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ publishers: [{ id: 'afr', name: 'AFR', feeds: ['https://example.com/afr.xml'] }] }));
    expect(loadConfig({ NEWS_FEEDS: good }).publishers).toEqual([{ id: 'afr', name: 'AFR', feeds: ['https://example.com/afr.xml'] }]);

    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ publishers: [{ id: 'Bad Id', name: 'X', feeds: ['ftp://example.com/x'] }] }));
    expect(() => loadConfig({ NEWS_FEEDS: bad })).toThrow(/NEWS_FEEDS .*bad\.json[\s\S]*publishers\.0\.id[\s\S]*publishers\.0\.feeds\.0: must be an http or https URL/);
    expect(() => loadConfig({ NEWS_FEEDS: path.join(dir, 'missing.json') })).toThrow(/NEWS_FEEDS .*missing\.json cannot be read/);
  });

  it('reads a relative NEWS_FEEDS from the working directory and names the absolute path when it is wrong', () => {
    const relative = path.relative(process.cwd(), path.join(__dirname, '../src/feeds/default-feeds.json'));
    expect(loadConfig({ NEWS_FEEDS: relative }).publishers).toEqual(loadConfig({}).publishers);
    expect(() => loadConfig({ NEWS_FEEDS: 'no-such-dir/feeds.json' })).toThrow(`NEWS_FEEDS ${path.resolve('no-such-dir/feeds.json')} cannot be read`);
  });

  it('refuses an empty NEWS_FEEDS, saying how to get the shipped list', () => {
    expect(() => loadConfig({ NEWS_FEEDS: '' })).toThrow(/NEWS_FEEDS: must be the path of a publishers file; leave it unset for the shipped list/);
  });
});
