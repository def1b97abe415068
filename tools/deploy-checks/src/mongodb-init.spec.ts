import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { fromRoot } from './workspace';

const script = readFileSync(fromRoot('k8s/base/mongodb/create-app-users.js'), 'utf8');

/** Runs the init script as mongosh would, against a recording stand-in for `db`. */
function run(env: Record<string, string>) {
  const created: { db: string; user: unknown }[] = [];
  const db = { getSiblingDB: (name: string) => ({ createUser: (user: unknown) => created.push({ db: name, user }) }) };
  vm.runInNewContext(script, { db, process: { env }, print: () => undefined });
  return created;
}

describe('create-app-users.js (MongoDB first start)', () => {
  it('creates one user per database, allowed to read and write that database only', () => {
    expect(run({ APP_DATABASES: 'crm users', CRM_DB_PASSWORD: 'a1', USERS_DB_PASSWORD: 'b2' })).toEqual([
      { db: 'crm', user: { user: 'crm', pwd: 'a1', roles: [{ role: 'readWrite', db: 'crm' }] } },
      { db: 'users', user: { user: 'users', pwd: 'b2', roles: [{ role: 'readWrite', db: 'users' }] } },
    ]);
  });

  it('fails the first start, naming the variable, when a password or the list is missing', () => {
    expect(() => run({ APP_DATABASES: 'crm news', CRM_DB_PASSWORD: 'a1' })).toThrow('NEWS_DB_PASSWORD is not set');
    expect(() => run({})).toThrow('APP_DATABASES is empty');
  });
});
