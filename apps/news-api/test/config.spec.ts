import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';

const STRONG = { MASTER_KEY: '9c2f4a6e8b0d1357acf02468bdf13579e2c4', JWT_SECRET: 'f1e2d3c4b5a69788796a5b4c3d2e1f00a1b2c3d4e5f6' };

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
    expect(() => loadConfig({ NODE_ENV: 'production', MASTER_KEY: STRONG.MASTER_KEY })).toThrow(/JWT_SECRET/);
    expect(loadConfig({ NODE_ENV: 'production', ...STRONG }).defaultsUsed).toEqual([]);
  });

  it('stops in production on placeholder or development secrets, naming each', () => {
    const check = (env: Record<string, string>) => () => loadConfig({ NODE_ENV: 'production', ...STRONG, ...env });
    expect(check({ MASTER_KEY: 'change-me-to-a-long-random-key', JWT_SECRET: 'change-me-to-a-long-random-secret' })).toThrow(
      /MASTER_KEY: looks like a placeholder \(contains "change-me"\)[\s\S]*JWT_SECRET: looks like a placeholder/,
    );
    expect(check({ MASTER_KEY: 'news-api-development-master-key' })).toThrow('MASTER_KEY: is a public development value');
    expect(check({ JWT_SECRET: 'news-api-development-jwt-secret-not-for-production' })).toThrow('JWT_SECRET: is a public development value');
    expect(check({ MASTER_KEY: 'only-16-chars-ok' })).toThrow('MASTER_KEY: is shorter than 32 characters');
    expect(check({ JWT_SECRET: 's'.repeat(32) })).toThrow('JWT_SECRET: has fewer than 8 different characters');
    // outside production the same values are taken as they are
    expect(loadConfig({ MASTER_KEY: 'change-me-to-a-long-random-key' }).masterKey).toBe('change-me-to-a-long-random-key');
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

  it('reads the API keys\' limits (1000 a day, 5 per 1 s by default) and names a bad value', () => {
    expect(loadConfig({}).keyLimits).toEqual({ daily: 1000, burst: 5, burstWindowSeconds: 1 });
    expect(loadConfig({ NEWS_KEY_DAILY_QUOTA: '50000', NEWS_KEY_BURST: '20', NEWS_KEY_BURST_WINDOW: '1m' }).keyLimits).toEqual({ daily: 50000, burst: 20, burstWindowSeconds: 60 });
    expect(() => loadConfig({ NEWS_KEY_DAILY_QUOTA: '0' })).toThrow('NEWS_KEY_DAILY_QUOTA: must be a whole number of requests from 1 to 999999999');
    expect(() => loadConfig({ NEWS_KEY_BURST: '5.5' })).toThrow('NEWS_KEY_BURST: must be a whole number of requests from 1 to 999999999');
    expect(() => loadConfig({ NEWS_KEY_BURST_WINDOW: '0' })).toThrow('NEWS_KEY_BURST_WINDOW: must be longer than 0');
    expect(() => loadConfig({ NEWS_KEY_BURST_WINDOW: '2d' })).toThrow('NEWS_KEY_BURST_WINDOW: must be at most a day');
  });

  it('reads FEED_ALLOWED_HOSTS (empty by default) and names a bad entry', () => {
    expect(loadConfig({}).feedAllowedHosts).toEqual({ variable: 'FEED_ALLOWED_HOSTS', names: [], blocks: [] });
    expect(loadConfig({ FEED_ALLOWED_HOSTS: 'feeds.internal, 10.0.0.7, 10.1.0.0/16' }).feedAllowedHosts).toEqual({
      variable: 'FEED_ALLOWED_HOSTS',
      names: ['feeds.internal'],
      blocks: ['10.0.0.7/32', '10.1.0.0/16'],
    });
    expect(() => loadConfig({ FEED_ALLOWED_HOSTS: 'feeds.internal, https://feeds.internal:8443' })).toThrow(
      /Invalid configuration:\n {2}FEED_ALLOWED_HOSTS: "https:\/\/feeds\.internal:8443" is not a host name, an IP address or a CIDR block/,
    );
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

  it('reads a publisher\'s optional domain and language, and names a bad one', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'news-feeds-'));
    const file = path.join(dir, 'feeds.json');
    const afr = { id: 'afr', name: 'AFR', feeds: ['https://example.com/afr.xml'], domain: 'afr.com', language: 'en' };
    writeFileSync(file, JSON.stringify({ publishers: [afr] }));
    expect(loadConfig({ NEWS_FEEDS: file }).publishers).toEqual([afr]);
    writeFileSync(file, JSON.stringify({ publishers: [{ ...afr, domain: 'AFR.com', language: 'english' }, { ...afr, id: 'b', domain: 'https://afr.com', language: 'xx' }] }));
    expect(() => loadConfig({ NEWS_FEEDS: file })).toThrow(
      /publishers\.0\.domain: must be a host name in lower case[\s\S]*publishers\.0\.language: must be an ISO 639-1 language code[\s\S]*publishers\.1\.domain[\s\S]*publishers\.1\.language/,
    );
  });

  it('ships every publisher with its domain and language', () => {
    expect(loadConfig({}).publishers.map((p) => [p.id, p.domain, p.language])).toEqual([
      ['abc-news', 'abc.net.au', 'en'],
      ['smh', 'smh.com.au', 'en'],
      ['the-age', 'theage.com.au', 'en'],
      ['guardian-au', 'theguardian.com', 'en'],
      ['the-conversation-au', 'theconversation.com', 'en'],
      ['stockhead', 'stockhead.com.au', 'en'],
      ['motley-fool-au', 'fool.com.au', 'en'],
    ]);
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
