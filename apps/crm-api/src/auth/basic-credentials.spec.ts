import { BasicStrategy } from 'passport-http';
import { basicCredentials } from './basic-credentials';

const basic = (credentials: string) => `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;

/** What the patched passport-http strategy (still news-api's) makes of a header: the credentials it verifies, or none. */
function viaPassport(authorization: string | undefined): { email: string; apiKey: string } | undefined {
  let verified: { email: string; apiKey: string } | undefined;
  const strategy = new BasicStrategy((email, apiKey, done) => {
    verified = { email, apiKey };
    done(null, false);
  });
  Object.assign(Object.create(strategy), { success: () => undefined, fail: () => undefined, error: () => undefined }).authenticate({ headers: { authorization } });
  return verified;
}

const HEADERS: (string | undefined)[] = [
  basic('ann@acme.test:k3y-_AZ09'),
  basic('ann@acme.test:a:b::c:'),
  basic('zoë@exämple.test:pässwörd-日本-🔑'),
  basic('ann@acme.test'),
  basic(':key'),
  basic('ann@acme.test:'),
  basic(''),
  'Bearer abc',
  'Basic',
  'Basic ',
  `basic ${Buffer.from('ann@acme.test:key').toString('base64')}`,
  `BASIC ${Buffer.from('ann@acme.test:key').toString('base64')}`,
  `Basic  ${Buffer.from('ann@acme.test:key').toString('base64')}`,
  `Basic ${Buffer.from('ann@acme.test:key').toString('base64')} trailing`,
  'Basic !!!not-base64!!!',
  '',
  undefined,
];

describe('basicCredentials', () => {
  it('decodes the email and the key, every colon after the first kept in the key, UTF-8', () => {
    expect(basicCredentials(basic('ann@acme.test:k3y-_AZ09'))).toEqual({ email: 'ann@acme.test', apiKey: 'k3y-_AZ09' });
    expect(basicCredentials(basic('ann@acme.test:a:b::c:'))).toEqual({ email: 'ann@acme.test', apiKey: 'a:b::c:' });
    expect(basicCredentials(basic('zoë@exämple.test:pässwörd-日本-🔑'))).toEqual({ email: 'zoë@exämple.test', apiKey: 'pässwörd-日本-🔑' });
  });

  it('has none without a header, a colon, a user or a password, or for another scheme', () => {
    for (const header of [undefined, '', 'Basic', basic('ann@acme.test'), basic(':key'), basic('ann@acme.test:'), 'Bearer abc']) {
      expect(basicCredentials(header)).toBeUndefined();
    }
  });

  it('reads every header as the patched passport-http strategy does', () => {
    for (const header of HEADERS) expect([header, basicCredentials(header)]).toEqual([header, viaPassport(header)]);
  });
});
