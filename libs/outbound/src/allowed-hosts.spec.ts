import { parseEnv, z } from '@lib/validation';
import { parseAddress } from './address-ranges';
import { allowedHosts, allowedHostsSetting, allowsAddress, allowsName } from './allowed-hosts';

describe('allowed hosts', () => {
  it('reads names, addresses and CIDR blocks, separated by commas', () => {
    expect(allowedHosts(' feeds.internal , 10.0.0.7,10.1.0.0/16, ::1, fd00::/8, Feeds.Example.COM., localhost,', 'FEED_ALLOWED_HOSTS')).toEqual({
      variable: 'FEED_ALLOWED_HOSTS',
      names: ['feeds.internal', 'feeds.example.com', 'localhost'],
      blocks: ['10.0.0.7/32', '10.1.0.0/16', '::1/128', 'fd00::/8'],
    });
    expect(allowedHosts('', 'X')).toEqual({ variable: 'X', names: [], blocks: [] });
  });

  it('stops on a bad entry, naming the variable and every bad entry', () => {
    expect(() => allowedHosts('ok.internal, http://feeds.internal, feeds.internal:8080, 10.0.0, 10.0.0.0/33, *.internal', 'FEED_ALLOWED_HOSTS')).toThrow(
      /FEED_ALLOWED_HOSTS: "http:\/\/feeds\.internal" is not a host name[\s\S]*"feeds\.internal:8080"[\s\S]*"10\.0\.0"[\s\S]*"10\.0\.0\.0\/33"[\s\S]*"\*\.internal"/,
    );
    expect(() => allowedHosts('127.1', 'X')).toThrow(/"127\.1" is not a host name, an IP address or a CIDR block/);
  });

  it('as an env setting: empty by default, bad entries reported with the other variables', () => {
    const schema = z.object({ FEED_ALLOWED_HOSTS: allowedHostsSetting('FEED_ALLOWED_HOSTS') });
    expect(parseEnv(schema, {}).FEED_ALLOWED_HOSTS).toEqual({ variable: 'FEED_ALLOWED_HOSTS', names: [], blocks: [] });
    expect(parseEnv(schema, { FEED_ALLOWED_HOSTS: '127.0.0.1' }).FEED_ALLOWED_HOSTS.blocks).toEqual(['127.0.0.1/32']);
    expect(() => parseEnv(schema, { FEED_ALLOWED_HOSTS: 'a.internal,:::' })).toThrow(/Invalid configuration:\n {2}FEED_ALLOWED_HOSTS: ":::" is not a host name/);
  });

  it('matches names exactly (any case, trailing dot) and addresses by block, IPv4-mapped forms too', () => {
    const allowed = allowedHosts('feeds.internal, 10.1.0.0/16, fd00::/8', 'X');
    expect(allowsName(allowed, 'FEEDS.internal.')).toBe(true);
    expect(allowsName(allowed, 'evil.feeds.internal')).toBe(false);
    const allows = (text: string) => allowsAddress(allowed, parseAddress(text)!);
    expect(['10.1.2.3', '::ffff:10.1.2.3', '::ffff:a01:203', 'fd00::1'].map(allows)).toEqual([true, true, true, true]);
    expect(['10.2.0.1', '127.0.0.1', 'fe80::1'].map(allows)).toEqual([false, false, false]);
  });
});
