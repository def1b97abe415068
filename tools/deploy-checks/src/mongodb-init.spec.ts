import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { fromRoot } from './workspace';

const script = (name: string) => readFileSync(fromRoot('k8s/base/mongodb', name), 'utf8');

interface StoredUser {
  user: string;
  pwd: string;
  roles: unknown[];
}

/** Runs create-app-users.js as mongosh would, against a recording stand-in for `db` holding `existing` users. */
function createUsers(env: Record<string, string>, existing: Record<string, StoredUser> = {}) {
  const users = { ...existing };
  const calls: string[] = [];
  const db = {
    getSiblingDB: (name: string) => ({
      getUser: (user: string) => (users[`${name}.${user}`] ? { user } : null),
      createUser: (user: StoredUser) => {
        calls.push(`create ${name}.${user.user}`);
        users[`${name}.${user.user}`] = user;
      },
      updateUser: (user: string, update: Omit<StoredUser, 'user'>) => {
        calls.push(`update ${name}.${user}`);
        users[`${name}.${user}`] = { user, ...update };
      },
    }),
  };
  vm.runInNewContext(script('create-app-users.js'), { db, process: { env }, print: () => undefined });
  return { users, calls };
}

describe('create-app-users.js (MongoDB first start under compose, and every bootstrap Job)', () => {
  it('creates one user per database, allowed to read and write that database only', () => {
    const { users, calls } = createUsers({ APP_DATABASES: 'crm users', CRM_DB_PASSWORD: 'a1', USERS_DB_PASSWORD: 'b2' });
    expect(calls).toEqual(['create crm.crm', 'create users.users']);
    expect(users).toEqual({
      'crm.crm': { user: 'crm', pwd: 'a1', roles: [{ role: 'readWrite', db: 'crm' }] },
      'users.users': { user: 'users', pwd: 'b2', roles: [{ role: 'readWrite', db: 'users' }] },
    });
  });

  it('run again, updates an existing user to the current password and roles instead of failing', () => {
    const existing = { 'crm.crm': { user: 'crm', pwd: 'old', roles: [{ role: 'dbOwner', db: 'crm' }] } };
    const { users, calls } = createUsers({ APP_DATABASES: 'crm', CRM_DB_PASSWORD: 'new' }, existing);
    expect(calls).toEqual(['update crm.crm']);
    expect(users['crm.crm']).toEqual({ user: 'crm', pwd: 'new', roles: [{ role: 'readWrite', db: 'crm' }] });
  });

  it('fails, naming the variable, when a password or the list is missing', () => {
    expect(() => createUsers({ APP_DATABASES: 'crm news', CRM_DB_PASSWORD: 'a1' })).toThrow('NEWS_DB_PASSWORD is not set');
    expect(() => createUsers({})).toThrow('APP_DATABASES is empty');
  });
});

/** Runs init-replica-set.js against a stand-in replica set: `config` undefined until initiated, a primary after `electionPolls` polls. */
function initiate(env: Record<string, string>, state: { config?: { _id: string; members: { _id: number; host: string }[] }; electionPolls?: number }) {
  const log: string[] = [];
  let polls = 0;
  const rs = {
    conf: () => {
      if (!state.config) throw Object.assign(new Error('no replset config has been received'), { code: 94, codeName: 'NotYetInitialized' });
      return state.config;
    },
    initiate: (config: NonNullable<typeof state.config>) => {
      log.push(`initiate ${JSON.stringify(config)}`);
      state.config = config;
    },
  };
  const db = { hello: () => ({ primary: state.config && ++polls > (state.electionPolls ?? 0) ? state.config.members[0].host : undefined }) };
  vm.runInNewContext(script('init-replica-set.js'), { rs, db, process: { env }, print: (line: string) => log.push(line), sleep: () => log.push('sleep') });
  return log;
}

describe('init-replica-set.js (bootstrap Job)', () => {
  const env = { REPLICA_SET: 'crm', MEMBERS: 'm-0.m:27017,m-1.m:27017,m-2.m:27017', WAIT_SECONDS: '5' };

  it('initiates the set with every member in order, then waits for a primary', () => {
    const state: Parameters<typeof initiate>[1] = { electionPolls: 2 };
    expect(initiate(env, state)).toEqual([
      'initiate {"_id":"crm","members":[{"_id":0,"host":"m-0.m:27017"},{"_id":1,"host":"m-1.m:27017"},{"_id":2,"host":"m-2.m:27017"}]}',
      'initiated replica set crm with m-0.m:27017, m-1.m:27017, m-2.m:27017',
      'sleep',
      'sleep',
      'primary: m-0.m:27017',
    ]);
  });

  it('run again on an initiated set, changes nothing', () => {
    const config = { _id: 'crm', members: [{ _id: 0, host: 'm-0.m:27017' }] };
    expect(initiate(env, { config })).toEqual(['replica set crm already initiated (m-0.m:27017)', 'primary: m-0.m:27017']);
  });

  it('refuses a server of another set, an even or empty member list, and gives up when no primary is elected in time', () => {
    expect(() => initiate(env, { config: { _id: 'users', members: [] } })).toThrow('this server belongs to replica set users, not crm');
    expect(() => initiate({ ...env, MEMBERS: 'a:1,b:1' }, {})).toThrow('MEMBERS must list an odd number of members, got "a:1,b:1"');
    expect(() => initiate({ REPLICA_SET: 'crm' }, {})).toThrow('MEMBERS must list an odd number');
    expect(() => initiate(env, { electionPolls: 100 })).toThrow('replica set crm has no primary after 5 s');
  });
});
