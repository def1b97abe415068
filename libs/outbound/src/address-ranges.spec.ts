import { effectiveAddress, nonPublicRange, parseAddress } from './address-ranges';

const rangeOf = (text: string) => {
  const address = parseAddress(text);
  if (!address) throw new Error(`not an address: ${text}`);
  return nonPublicRange(address);
};

describe('nonPublicRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['100.127.255.255', 'shared (carrier-grade NAT)'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.170.2', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'cloud metadata'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b:1::1', 'reserved'],
    ['::7f00:1', 'reserved'], // IPv4-compatible (deprecated): outside global unicast
    ['2001:db8::1', 'reserved'],
    ['2002:7f00:1::1', 'reserved'],
    ['2001:0:4136:e378::1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['100::1', 'reserved'],
  ])('%s is %s', (address, range) => {
    expect(rangeOf(address)).toBe(range);
  });

  it.each(['93.184.215.14', '1.1.1.1', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '64:ff9b::5db8:d70e', '::ffff:93.184.215.14'])(
    '%s is public',
    (address) => {
      expect(rangeOf(address)).toBeUndefined();
    },
  );
});

describe('effectiveAddress', () => {
  it('reads IPv4-mapped and NAT64 addresses as their IPv4 address', () => {
    expect(effectiveAddress(parseAddress('::ffff:7f00:1')!).toString()).toBe('127.0.0.1');
    expect(effectiveAddress(parseAddress('64:ff9b::c0a8:101')!).toString()).toBe('192.168.1.1');
    expect(effectiveAddress(parseAddress('2606:4700::1')!).toString()).toBe('2606:4700::1');
  });

  it('parses addresses in brackets, and nothing else', () => {
    expect(parseAddress('[::1]')?.toString()).toBe('::1');
    expect(parseAddress('feeds.example.com')).toBeUndefined();
    expect(parseAddress('')).toBeUndefined();
  });
});
