import { loadConfig } from '../src/config';

const PRODUCTION = {
  NODE_ENV: 'production',
  CRM_ADMIN_EMAIL: 'owner@acme.test',
  CRM_DOMAIN: 'acme',
  CRM_ADMIN_API_KEY: '7d1f3b5a9c2e4f6a8b0c1d3e5f7a9b2c4d6e8f0a',
  CRM_CURSOR_SECRET: 'e4c6a8f0b2d41357ace02468bdf13579ca8e6f42',
};

describe('loadConfig', () => {
  it('uses the printed development defaults outside production', () => {
    const config = loadConfig({});
    expect(config.bootstrap).toEqual({ email: 'admin@example.com', apiKey: 'dev-api-key', domain: 'example' });
    expect(config.defaultsUsed).toContain('CRM_CURSOR_SECRET=crm-api-development-cursor-secret');
  });

  it('reads the campaign worker settings, with their defaults and bounds', () => {
    expect(loadConfig({}).campaigns).toEqual({ pollMs: 1000, leaseMs: 60_000, concurrency: 4, stepsPerClaim: 20 });
    expect(loadConfig({ CAMPAIGN_POLL_MS: '50', CAMPAIGN_LEASE_MS: '2000', CAMPAIGN_CONCURRENCY: '8' }).campaigns).toMatchObject({ pollMs: 50, leaseMs: 2000, concurrency: 8 });
    expect(() => loadConfig({ CAMPAIGN_POLL_MS: '10' })).toThrow(/CAMPAIGN_POLL_MS/);
    expect(() => loadConfig({ CAMPAIGN_LEASE_MS: 'soon' })).toThrow(/CAMPAIGN_LEASE_MS/);
    expect(() => loadConfig({ CAMPAIGN_CONCURRENCY: '65' })).toThrow(/CAMPAIGN_CONCURRENCY/);
  });

  it('takes strong secrets in production', () => {
    const config = loadConfig(PRODUCTION);
    expect(config).toMatchObject({ production: true, bootstrap: { apiKey: PRODUCTION.CRM_ADMIN_API_KEY }, cursorSecret: PRODUCTION.CRM_CURSOR_SECRET, defaultsUsed: [] });
  });

  it('stops in production on placeholder or development secrets, naming each', () => {
    expect(() => loadConfig({ ...PRODUCTION, CRM_ADMIN_API_KEY: 'change-me', CRM_CURSOR_SECRET: 'change-me-to-a-long-random-secret' })).toThrow(
      /CRM_ADMIN_API_KEY: looks like a placeholder \(contains "change-me"\)[\s\S]*CRM_CURSOR_SECRET: looks like a placeholder/,
    );
    expect(() => loadConfig({ ...PRODUCTION, CRM_ADMIN_API_KEY: 'dev-api-key' })).toThrow('CRM_ADMIN_API_KEY: is a public development value');
    expect(() => loadConfig({ ...PRODUCTION, CRM_CURSOR_SECRET: 'crm-api-development-cursor-secret' })).toThrow('CRM_CURSOR_SECRET: is a public development value');
    expect(() => loadConfig({ ...PRODUCTION, CRM_ADMIN_API_KEY: 'a-short-admin-key' })).toThrow('CRM_ADMIN_API_KEY: is shorter than 32 characters');
    // the email and domain are not secrets: example values are the caller's business
    expect(loadConfig({ ...PRODUCTION, CRM_ADMIN_EMAIL: 'admin@example.com', CRM_DOMAIN: 'example' }).bootstrap.domain).toBe('example');
  });

  it('stops in production when a secret is missing', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/CRM_ADMIN_API_KEY: is required when NODE_ENV=production[\s\S]*CRM_CURSOR_SECRET: is required/);
  });
});
