import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { USAGE, parseAdminArgs, runAdminCommand } from '../src/admin/commands';
import { setupCrmApp } from './setup-app';

const ctx = setupCrmApp();

const run = (...argv: string[]) => runAdminCommand(argv, ctx.accounts());
const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;
const me = (email: string, key: string) => request(ctx.app).get('/dev/api/users/current-user').set('Authorization', basic(email, key)).set('Accept', 'application/json');

/** The key printed by add-user or issue-key. */
function keyOf(lines: string[]): string {
  const match = lines.join('\n').match(/(?:API key: |new API key for \S+: )(\S+)$/m);
  expect(match).not.toBeNull();
  return match![1];
}

const storedUser = (email: string) => ctx.connection.collection('domain_users').findOne({ email });

describe('crm:admin', () => {
  it('add-user prints a key that authenticates over HTTP', async () => {
    const lines = await run('add-user', '--domain', 'acme', '--email', 'ann@acme.test', '--name', 'Ann Lee');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^added ann@acme\.test \(id \d+\) to acme$/);
    const key = keyOf(lines);
    expect(key.length).toBeGreaterThanOrEqual(32);
    const res = await me('ann@acme.test', key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: 'ann@acme.test', name: 'Ann Lee', domain: 'acme', is_admin: false, is_account_owner: false });
    expect(await ctx.Account.countDocuments({ domain: 'acme' })).toBe(1);

    // a second user of the same account joins it
    const bea = keyOf(await run('add-user', '--domain', 'acme', '--email', 'bea@acme.test'));
    const users = await request(ctx.app).get('/dev/api/users').set('Authorization', basic('bea@acme.test', bea)).set('Accept', 'application/json');
    expect(users.body.map((u: { email: string }) => u.email)).toEqual(['ann@acme.test', 'bea@acme.test']);
    expect(await ctx.Account.countDocuments()).toBe(1);
  });

  it('--admin makes an admin', async () => {
    const lines = await run('add-user', '--domain', 'acme', '--email', 'boss@acme.test', '--admin');
    expect(lines[0]).toMatch(/ as admin$/);
    expect((await me('boss@acme.test', keyOf(lines))).body.is_admin).toBe(true);
  });

  it('issue-key replaces the key: old 401, new 200', async () => {
    const oldKey = keyOf(await run('add-user', '--domain', 'acme', '--email', 'ann@acme.test'));
    const lines = await run('issue-key', '--email', 'ann@acme.test');
    const newKey = keyOf(lines);
    expect(newKey).not.toBe(oldKey);
    expect(lines[0]).toContain('ann@acme.test');
    const old = await me('ann@acme.test', oldKey);
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('unauthorized');
    expect((await me('ann@acme.test', newKey)).status).toBe(200);
  });

  it('revoke-key: the user can no longer sign in; issue-key lets them back in', async () => {
    const key = keyOf(await run('add-user', '--domain', 'acme', '--email', 'ann@acme.test'));
    expect(await run('revoke-key', '--email', 'ann@acme.test')).toEqual(['revoked the API key of ann@acme.test']);
    expect((await me('ann@acme.test', key)).status).toBe(401);
    expect((await storedUser('ann@acme.test'))!.api_key_hash).toBeNull();
    const again = keyOf(await run('issue-key', '--email', 'ann@acme.test'));
    expect((await me('ann@acme.test', again)).status).toBe(200);
  });

  it('make-admin and drop-admin', async () => {
    const key = keyOf(await run('add-user', '--domain', 'acme', '--email', 'ann@acme.test'));
    expect(await run('make-admin', '--email', 'ann@acme.test')).toEqual(['ann@acme.test is now an admin']);
    expect((await storedUser('ann@acme.test'))!.is_admin).toBe(true);
    expect((await me('ann@acme.test', key)).body.is_admin).toBe(true);
    expect(await run('drop-admin', '--email', 'ann@acme.test')).toEqual(['ann@acme.test is no longer an admin']);
    expect((await me('ann@acme.test', key)).body.is_admin).toBe(false);
  });

  it('disable and enable', async () => {
    const key = keyOf(await run('add-user', '--domain', 'acme', '--email', 'ann@acme.test'));
    expect(await run('disable', '--email', 'ann@acme.test')).toEqual(['ann@acme.test is disabled']);
    expect((await me('ann@acme.test', key)).status).toBe(401);
    expect((await storedUser('ann@acme.test'))!.is_disabled).toBe(true);
    expect(await run('enable', '--email', 'ann@acme.test')).toEqual(['ann@acme.test is enabled']);
    const res = await me('ann@acme.test', key);
    expect(res.status).toBe(200);
    expect(res.body.is_disabled).toBe(false);
  });

  it('list-users lists the users of one account with their roles and states', async () => {
    await run('add-user', '--domain', 'acme', '--email', 'ann@acme.test', '--admin');
    await run('add-user', '--domain', 'acme', '--email', 'bea@acme.test');
    await run('add-user', '--domain', 'other', '--email', 'ozzy@other.test');
    await run('disable', '--email', 'bea@acme.test');
    await run('revoke-key', '--email', 'bea@acme.test');
    const lines = await run('list-users', '--domain', 'acme');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d+\tann@acme\.test\tadmin$/);
    expect(lines[1]).toMatch(/^\d+\tbea@acme\.test\tuser, disabled, no key$/);
    expect(await run('list-users', '--domain', 'other')).toEqual([expect.stringMatching(/^\d+\tozzy@other\.test\tuser$/)]);
    await expect(run('list-users', '--domain', 'nowhere')).rejects.toThrow('no account has the domain nowhere');
  });

  it('help and no command print the usage', async () => {
    expect(await run()).toEqual([USAGE]);
    expect(await run('help')).toEqual([USAGE]);
    for (const command of ['add-user', 'issue-key', 'revoke-key', 'make-admin', 'drop-admin', 'disable', 'enable', 'list-users']) {
      expect(USAGE).toContain(command);
    }
  });

  it('--help, -h, help and no command ask for the usage, whatever else is given', () => {
    for (const argv of [[], ['--help'], ['-h'], ['help'], ['add-user', '--help'], ['--help', 'frobnicate', 'extra']]) {
      expect(parseAdminArgs(argv)).toEqual({ values: {} });
    }
  });

  it('reads the flags as the usage text writes them', () => {
    expect(parseAdminArgs(['add-user', '--domain', 'acme', '--email', 'ann@acme.test', '--name', 'Ann Lee', '--admin'])).toEqual({
      command: 'add-user',
      values: { domain: 'acme', email: 'ann@acme.test', name: 'Ann Lee', admin: true },
    });
    expect(parseAdminArgs(['list-users', '--domain=acme'])).toEqual({ command: 'list-users', values: { domain: 'acme' } });
    // the usage's "[--admin]" means the flag is optional; typed with its brackets it is a stray argument
    expect(() => parseAdminArgs(['add-user', '--domain', 'acme', '--email', 'a@acme.test', '[--admin]'])).toThrow(/unexpected arguments: \[--admin\]/);
    expect(() => parseAdminArgs(['frobnicate'])).toThrow(/unknown command frobnicate[\s\S]*Usage:/);
    expect(() => parseAdminArgs(['add-user', '--domain'])).toThrow(/--domain[\s\S]*Usage:/);
  });

  it('every crm:admin command the README shows is one the command line reads, and every command is in the usage', () => {
    const readme = readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    const shown = [...readme.matchAll(/npm run crm:admin -- ([^`#\n]+)/g)].map((match) => match[1].trim().split(/\s+/));
    expect(shown.length).toBeGreaterThanOrEqual(5);
    for (const argv of shown) {
      const { command } = parseAdminArgs(argv);
      if (command) expect(USAGE).toContain(`  ${command} `);
    }
    for (const command of ['add-user', 'issue-key', 'revoke-key', 'make-admin', 'drop-admin', 'disable', 'enable', 'list-users', 'delete-user']) {
      expect(USAGE).toMatch(new RegExp(`^  ${command} `, 'm'));
      expect(() => parseAdminArgs([command])).not.toThrow();
    }
  });

  it('an unknown command, a missing option or extra arguments throw with the usage text', async () => {
    await expect(run('frobnicate')).rejects.toThrow(/unknown command frobnicate/);
    await expect(run('frobnicate')).rejects.toThrow(USAGE);
    for (const argv of [['issue-key'], ['revoke-key'], ['make-admin'], ['drop-admin'], ['disable'], ['enable'], ['issue-key', '--email', '']]) {
      await expect(runAdminCommand(argv, ctx.accounts())).rejects.toThrow(/--email is required/);
      await expect(runAdminCommand(argv, ctx.accounts())).rejects.toThrow(USAGE);
    }
    await expect(run('add-user', '--domain', 'acme')).rejects.toThrow(/--email is required[\s\S]*Usage:/);
    await expect(run('add-user', '--email', 'x@acme.test')).rejects.toThrow(/--domain is required[\s\S]*Usage:/);
    await expect(run('list-users')).rejects.toThrow(/--domain is required[\s\S]*Usage:/);
    await expect(run('issue-key', 'extra', '--email', 'x@acme.test')).rejects.toThrow(/unexpected arguments: extra[\s\S]*Usage:/);
    await expect(run('add-user', '--domain', 'acme', '--email', 'x@acme.test', '--bogus')).rejects.toThrow(/--bogus[\s\S]*Usage:/);
    // nothing was made along the way
    expect(await ctx.connection.collection('domain_users').countDocuments()).toBe(0);
  });

  it('adding an existing email is a clear error and changes nothing', async () => {
    const key = keyOf(await run('add-user', '--domain', 'acme', '--email', 'ann@acme.test'));
    const before = await storedUser('ann@acme.test');
    await expect(run('add-user', '--domain', 'acme', '--email', 'ann@acme.test')).rejects.toThrow('A user with the email ann@acme.test already exists');
    await expect(run('add-user', '--domain', 'other', '--email', 'ann@acme.test', '--admin')).rejects.toThrow(/already exists/);
    expect(await storedUser('ann@acme.test')).toEqual(before);
    expect(await ctx.connection.collection('domain_users').countDocuments()).toBe(1);
    expect(await ctx.Account.exists({ domain: 'other' })).toBeNull(); // no account made for nobody
    expect((await me('ann@acme.test', key)).status).toBe(200);
  });

  it('commands on an unknown email are a clear error', async () => {
    for (const command of ['issue-key', 'revoke-key', 'make-admin', 'drop-admin', 'disable', 'enable']) {
      await expect(run(command, '--email', 'ghost@acme.test')).rejects.toThrow('No user has the email ghost@acme.test');
    }
  });
});
