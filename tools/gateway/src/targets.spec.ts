import { serviceEntry } from '@lib/services';
import { resolveTargets } from './targets';

// Its own table, so the tests hold while the real one grows.
const services = [serviceEntry('articles-api', 'articles', 3002), serviceEntry('users-api', 'users', 3004)];

describe('resolveTargets', () => {
  it('sends each service to its local port by default, following the port variables', () => {
    expect(Object.fromEntries(resolveTargets(services, { USERS_PORT: '4004' }))).toEqual({
      'articles-api': 'http://127.0.0.1:3002',
      'users-api': 'http://127.0.0.1:4004',
    });
  });

  it('fills a template by service name, as under compose', () => {
    expect(Object.fromEntries(resolveTargets(services, { GATEWAY_TARGET: 'http://{name}:3000' }))).toEqual({
      'articles-api': 'http://articles-api:3000',
      'users-api': 'http://users-api:3000',
    });
  });

  it('rejects a template that is not a plain http origin, and bad ports', () => {
    for (const template of ['{name}:3000', 'https://{name}:3000', 'http://{name}:3000/api', 'http://{name}:99999']) {
      expect(() => resolveTargets(services, { GATEWAY_TARGET: template })).toThrow(`GATEWAY_TARGET must be an http URL template such as http://127.0.0.1:{port}, got "${template}"`);
    }
    expect(() => resolveTargets(services, { ARTICLES_PORT: 'x' })).toThrow('ARTICLES_PORT');
  });
});
