import { SERVICES, localPort, serviceForHost } from './service-table';

describe('service table', () => {
  it('routes a host with or without port to its service', () => {
    expect(serviceForHost('articles.localhost', 'localhost')?.name).toBe('articles-api');
    expect(serviceForHost('users.localhost:8080', 'localhost')?.name).toBe('users-api');
    expect(serviceForHost('USERS.LOCALHOST', 'localhost')?.name).toBe('users-api');
  });

  it('finds nothing for unknown or partial hosts', () => {
    expect(serviceForHost('localhost:8080', 'localhost')).toBeUndefined();
    expect(serviceForHost('articles.example.com', 'localhost')).toBeUndefined();
    expect(serviceForHost('evilarticles.localhost', 'localhost')).toBeUndefined();
    expect(serviceForHost(undefined, 'localhost')).toBeUndefined();
  });

  it('names each row as README.md lists it (port variable, env prefix, database)', () => {
    expect(SERVICES.map((s) => [s.name, s.subdomain, s.portEnv, s.defaultPort, s.envPrefix, s.database])).toEqual([
      ['crm-api', 'crm', 'CRM_PORT', 3001, 'CRM', 'crm'],
      ['articles-api', 'articles', 'ARTICLES_PORT', 3002, 'ARTICLES', 'articles'],
      ['news-api', 'news', 'NEWS_PORT', 3003, 'NEWS', 'news'],
      ['users-api', 'users', 'USERS_PORT', 3004, 'USERS', 'users'],
    ]);
  });

  it('gives every service distinct ports, hosts and databases', () => {
    for (const key of ['name', 'subdomain', 'defaultPort', 'database', 'portEnv'] as const) {
      expect(new Set(SERVICES.map((s) => s[key])).size).toBe(SERVICES.length);
    }
  });

  it('reads ports from env and rejects bad values', () => {
    const entry = SERVICES[0];
    expect(localPort(entry, {})).toBe(entry.defaultPort);
    expect(localPort(entry, { [entry.portEnv]: '4100' })).toBe(4100);
    expect(() => localPort(entry, { [entry.portEnv]: 'abc' })).toThrow(entry.portEnv);
    expect(() => localPort(entry, { [entry.portEnv]: '70000' })).toThrow(entry.portEnv);
  });
});
