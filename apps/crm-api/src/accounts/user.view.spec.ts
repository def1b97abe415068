import { createHash } from 'node:crypto';
import type { DomainUserDoc } from './domain-user.model';
import { userView } from './user.view';

const user = (domain: string, id: number): DomainUserDoc => ({
  _id: id,
  account: 1,
  domain,
  email: `u${id}@${domain}.test`,
  name: '',
  is_admin: false,
  is_account_owner: false,
  is_disabled: false,
  api_key_hash: 'secret-hash',
  created_time: 1700000000,
  logged_in_time: null,
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('userView', () => {
  it('hashedString is the SHA-256 of domain:id, the same on every call', () => {
    expect(userView(user('acme', 7)).hashedString).toBe(sha256('acme:7'));
    expect(userView(user('acme', 7)).hashedString).toBe(sha256('acme:7'));
    expect(userView(user('acme', 8)).hashedString).toBe(sha256('acme:8'));
    expect(userView(user('other', 7)).hashedString).toBe(sha256('other:7'));
  });

  it('never shows the key hash', () => {
    expect(JSON.stringify(userView(user('acme', 7)))).not.toContain('secret-hash');
  });
});
