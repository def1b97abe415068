import { readFileSync } from 'node:fs';
import { BasicStrategy } from 'passport-http';

// passport-http 0.3.0 is patched by `npm ci` (patches/passport-http+0.3.0.patch): Buffer.from instead
// of the deprecated `new Buffer` (whose deprecation check ran on every request), and the password
// is everything after the first colon (RFC 7617) instead of the text up to the second one.

type Outcome = { verified: [string, string] } | { failed: unknown };

function authenticate(authorization: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const strategy = new BasicStrategy((userid, password, done) => {
      resolve({ verified: [userid, password] });
      done(null, false);
    });
    const run = Object.assign(Object.create(strategy), {
      success: () => undefined,
      fail: (challenge: unknown) => resolve({ failed: challenge }),
      error: reject,
    });
    run.authenticate({ headers: { authorization } });
  });
}

const basic = (credentials: string) => `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;

describe('passport-http BasicStrategy (patched)', () => {
  it('no longer calls the deprecated Buffer constructor', () => {
    const source = readFileSync(require.resolve('passport-http/lib/passport-http/strategies/basic.js'), 'utf8');
    expect(source).not.toMatch(/new Buffer\(/);
  });

  it('decodes the email and key', async () => {
    expect(await authenticate(basic('ann@acme.test:k3y-_AZ09'))).toEqual({ verified: ['ann@acme.test', 'k3y-_AZ09'] });
  });

  it('keeps every colon after the first in the password', async () => {
    expect(await authenticate(basic('ann@acme.test:a:b::c:'))).toEqual({ verified: ['ann@acme.test', 'a:b::c:'] });
  });

  it('decodes non-ASCII characters as UTF-8', async () => {
    expect(await authenticate(basic('zoë@exämple.test:pässwörd-日本-🔑'))).toEqual({ verified: ['zoë@exämple.test', 'pässwörd-日本-🔑'] });
  });

  it('still refuses credentials without a colon (400) and an empty user or password (challenge)', async () => {
    expect(await authenticate(basic('ann@acme.test'))).toEqual({ failed: 400 });
    expect(await authenticate(basic(':key'))).toEqual({ failed: 'Basic realm="Users"' });
    expect(await authenticate(basic('ann@acme.test:'))).toEqual({ failed: 'Basic realm="Users"' });
    expect(await authenticate('Bearer abc')).toEqual({ failed: 'Basic realm="Users"' });
  });
});
