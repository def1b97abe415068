import type { ServiceEntry } from '@lib/services';
import { chooseDatabases, describeDatabases } from './database-lane';

const service = (name: string, envPrefix: string): ServiceEntry => ({
  name,
  envPrefix,
  subdomain: envPrefix.toLowerCase(),
  portEnv: `${envPrefix}_PORT`,
  defaultPort: 1,
  database: envPrefix.toLowerCase(),
});
const services = [service('articles-api', 'ARTICLES'), service('users-api', 'USERS')];

describe('chooseDatabases', () => {
  it('takes the embedded lane when no URL is set', () => {
    const choice = chooseDatabases(services, { MONGO_URL: '' });
    expect(choice).toEqual({ configured: [], embedded: ['articles-api', 'users-api'] });
    expect(describeDatabases(choice, 'mongodb://127.0.0.1:4000/')).toEqual([
      'database: articles-api, users-api use the embedded in-memory server at mongodb://127.0.0.1:4000/ (data is lost at exit; set MONGO_URL for a real MongoDB)',
    ]);
  });

  it('uses MONGO_URL for every app, and a per-app URL over it', () => {
    const choice = chooseDatabases(services, { MONGO_URL: 'mongodb://db:27017/', USERS_MONGO_URL: 'mongodb://u:secret@users-db/users' });
    expect(choice).toEqual({
      configured: [
        { name: 'articles-api', variable: 'MONGO_URL', url: 'mongodb://db:27017/' },
        { name: 'users-api', variable: 'USERS_MONGO_URL', url: 'mongodb://u:secret@users-db/users' },
      ],
      embedded: [],
    });
    const lines = describeDatabases(choice);
    expect(lines).toEqual(['database: articles-api uses MONGO_URL (mongodb://db:27017/)', expect.stringMatching(/^database: users-api uses USERS_MONGO_URL \(mongodb:\/\/u:\*\*\*\*@users-db\/users\)$/)]);
    expect(lines.join('\n')).not.toContain('secret');
  });

  it('starts the embedded server only for apps without any URL', () => {
    const choice = chooseDatabases(services, { ARTICLES_MONGO_URL: 'mongodb://db/' });
    expect(choice.configured.map((c) => c.name)).toEqual(['articles-api']);
    expect(choice.embedded).toEqual(['users-api']);
  });

  it('names a shared MONGO_URL once', () => {
    const choice = chooseDatabases(services, { MONGO_URL: 'mongodb://db:27017/' });
    expect(describeDatabases(choice)).toEqual(['database: articles-api, users-api use MONGO_URL (mongodb://db:27017/)']);
  });
});
