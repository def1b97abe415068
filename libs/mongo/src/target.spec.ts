import { redactMongoUrl, resolveMongoTarget } from './target';

describe('resolveMongoTarget', () => {
  it('takes the embedded lane (no url) when nothing is set', () => {
    expect(resolveMongoTarget('CRM', 'crm')).toEqual(expect.objectContaining({ dbName: 'crm' }));
    expect(resolveMongoTarget('CRM', 'crm', {})).toEqual({ dbName: 'crm' });
    expect(resolveMongoTarget('CRM', 'crm', { CRM_MONGO_URL: '', MONGO_URL: '' })).toEqual({ dbName: 'crm' });
  });

  it('uses MONGO_URL with the default database when the URL names none', () => {
    expect(resolveMongoTarget('CRM', 'crm', { MONGO_URL: 'mongodb://db:27017' })).toEqual({ url: 'mongodb://db:27017', dbName: 'crm' });
    expect(resolveMongoTarget('CRM', 'crm', { MONGO_URL: 'mongodb://db:27017/?authSource=admin' })).toEqual({
      url: 'mongodb://db:27017/?authSource=admin',
      dbName: 'crm',
    });
  });

  it('prefers the per-app variable over MONGO_URL', () => {
    const env = { CRM_MONGO_URL: 'mongodb://crm-db:27017', MONGO_URL: 'mongodb://shared:27017' };
    expect(resolveMongoTarget('CRM', 'crm', env)).toEqual({ url: 'mongodb://crm-db:27017', dbName: 'crm' });
    expect(resolveMongoTarget('USERS', 'users', env)).toEqual({ url: 'mongodb://shared:27017', dbName: 'users' });
    expect(resolveMongoTarget('CRM', 'crm', { CRM_MONGO_URL: '', MONGO_URL: 'mongodb://shared:27017' }).url).toBe('mongodb://shared:27017');
  });

  it('lets a database named in the URL win over the default', () => {
    expect(resolveMongoTarget('CRM', 'crm', { MONGO_URL: 'mongodb://u:p@db:27017/crm_prod?authSource=admin' }).dbName).toBe('crm_prod');
    expect(resolveMongoTarget('CRM', 'crm', { CRM_MONGO_URL: 'mongodb+srv://u:p@cluster.example.com/crm_stage' }).dbName).toBe('crm_stage');
    expect(resolveMongoTarget('CRM', 'crm', { MONGO_URL: 'mongodb://h1:1,h2:2/multi?replicaSet=rs0' }).dbName).toBe('multi');
    expect(resolveMongoTarget('CRM', 'crm', { MONGO_URL: 'mongodb://db/my%20db' }).dbName).toBe('my db');
  });

  it('fails with a message naming the variable that holds an invalid URL', () => {
    expect(() => resolveMongoTarget('CRM', 'crm', { MONGO_URL: 'http://db:27017' })).toThrow(/^MONGO_URL is not a valid MongoDB URL: /);
    expect(() => resolveMongoTarget('CRM', 'crm', { CRM_MONGO_URL: 'not a url', MONGO_URL: 'mongodb://ok:27017' })).toThrow(
      /^CRM_MONGO_URL is not a valid MongoDB URL: /,
    );
    expect(() => resolveMongoTarget('CRM', 'crm', { MONGO_URL: 'mongodb://' })).toThrow('MONGO_URL');
  });

  it('does not echo the URL (and its password) in the error', () => {
    let message = '';
    try {
      resolveMongoTarget('CRM', 'crm', { MONGO_URL: 'mongo://admin:Sup3rSecret@db/crm' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^MONGO_URL is not a valid MongoDB URL/);
    expect(message).not.toContain('Sup3rSecret');
  });
});

describe('redactMongoUrl', () => {
  it('hides the password and keeps everything else', () => {
    expect(redactMongoUrl('mongodb://app:pa55word@db:27017/crm?authSource=admin')).toBe('mongodb://app:****@db:27017/crm?authSource=admin');
    expect(redactMongoUrl('mongodb+srv://app:p%40ss@cluster.example.com/crm')).toBe('mongodb+srv://app:****@cluster.example.com/crm');
    const multi = redactMongoUrl('mongodb://app:hunter2@h1:27017,h2:27017/crm?replicaSet=rs0');
    expect(multi).not.toContain('hunter2');
    expect(multi).toContain('h1:27017,h2:27017');
  });

  it('leaves a URL without a password unchanged', () => {
    expect(redactMongoUrl('mongodb://db:27017/crm')).toBe('mongodb://db:27017/crm');
    expect(redactMongoUrl('mongodb://app@db:27017/crm')).toBe('mongodb://app@db:27017/crm');
  });

  it('never returns an unparseable URL as is', () => {
    expect(redactMongoUrl('postgres://u:secret@db/x')).toBe('(unparseable url)');
    expect(redactMongoUrl('')).toBe('(unparseable url)');
  });

  it('takes the query time limit from MONGO_QUERY_TIME_MS, for any lane, and refuses a bad one', () => {
    expect(resolveMongoTarget('NEWS', 'news', { MONGO_QUERY_TIME_MS: '30000' })).toEqual({ dbName: 'news', queryMs: 30_000 });
    expect(resolveMongoTarget('NEWS', 'news', { MONGO_URL: 'mongodb://db:27017', MONGO_QUERY_TIME_MS: '100', MONGO_POOL_SIZE: '2' })).toEqual({ url: 'mongodb://db:27017', dbName: 'news', poolSize: 2, queryMs: 100 });
    expect(resolveMongoTarget('NEWS', 'news', { MONGO_QUERY_TIME_MS: '' })).toEqual({ dbName: 'news' });
    for (const bad of ['99', '600001', '1e4', '-5', 'fast', ' 500']) {
      expect(() => resolveMongoTarget('NEWS', 'news', { MONGO_QUERY_TIME_MS: bad })).toThrow(`MONGO_QUERY_TIME_MS must be a whole number of milliseconds from 100 to 600000, got "${bad}"`);
    }
  });

  it('takes the pool size from MONGO_POOL_SIZE, for any lane', () => {
    expect(resolveMongoTarget('CRM', 'crm', { MONGO_POOL_SIZE: '5' })).toEqual({ dbName: 'crm', poolSize: 5 });
    expect(resolveMongoTarget('CRM', 'crm', { MONGO_URL: 'mongodb://db:27017', MONGO_POOL_SIZE: '40' })).toEqual({ url: 'mongodb://db:27017', dbName: 'crm', poolSize: 40 });
    expect(resolveMongoTarget('CRM', 'crm', { MONGO_POOL_SIZE: '' })).toEqual({ dbName: 'crm' });
  });

  it('refuses a pool size that is not a whole number from 1 to 100, naming the variable', () => {
    for (const bad of ['0', '101', '-3', '2.5', 'ten', ' 5']) {
      expect(() => resolveMongoTarget('CRM', 'crm', { MONGO_POOL_SIZE: bad })).toThrow(`MONGO_POOL_SIZE must be a whole number from 1 to 100, got "${bad}"`);
    }
  });
});
