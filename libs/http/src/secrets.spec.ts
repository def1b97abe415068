import { bearerToken, sameBytes, secretMatcher, sha256 } from './secrets';

describe('secrets', () => {
  it('bearerToken reads the token of a Bearer header, the scheme in any case, and nothing else', () => {
    expect(bearerToken({ authorization: 'Bearer abc' })).toBe('abc');
    expect(bearerToken({ authorization: 'bearer  abc ' })).toBe('abc');
    expect(bearerToken({ authorization: 'Basic abc' })).toBeUndefined();
    expect(bearerToken({ authorization: ['Bearer abc'] })).toBeUndefined();
    expect(bearerToken({})).toBeUndefined();
  });

  it('secretMatcher accepts the secret only', () => {
    const matches = secretMatcher('s3cret');
    expect(matches('s3cret')).toBe(true);
    expect(matches('s3cret ')).toBe(false);
    expect(matches('')).toBe(false);
    expect(matches(undefined)).toBe(false);
  });

  it('sameBytes compares whole byte strings; sha256 is the hex digest stored for API keys', () => {
    expect(sha256('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sameBytes(sha256('a'), sha256('a'))).toBe(true);
    expect(sameBytes(sha256('a'), sha256('b'))).toBe(false);
    expect(sameBytes(Buffer.from('ab'), Buffer.from('abc'))).toBe(false);
  });
});
