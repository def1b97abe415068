import { bindAddressOf, parseBindAddress, parseTrustedProxies } from './network-settings';

describe('BIND_ADDRESS', () => {
  it('is undefined (loopback) when unset or blank, and the address when it is one', () => {
    expect(bindAddressOf({})).toBeUndefined();
    expect(bindAddressOf({ BIND_ADDRESS: ' ' })).toBeUndefined();
    expect(bindAddressOf({ BIND_ADDRESS: '0.0.0.0' })).toBe('0.0.0.0');
    expect(parseBindAddress('::')).toBe('::');
    expect(parseBindAddress('192.168.1.20')).toBe('192.168.1.20');
  });

  it.each(['localhost', '0.0.0.0:3000', '10.0.0.0/8', 'all'])('refuses %s, naming the variable', (value) => {
    expect(() => bindAddressOf({ BIND_ADDRESS: value })).toThrow(`BIND_ADDRESS must be an IP address (127.0.0.1, 0.0.0.0, ::), got "${value}"`);
  });
});

describe('TRUST_PROXY', () => {
  it('trusts nobody when unset, empty or 0: the socket peer is the client, loopback included', () => {
    for (const value of [undefined, '', ' ', '0']) {
      const trusted = parseTrustedProxies(value);
      expect([trusted.description, trusted.trusts('127.0.0.1', 0), trusted.trusts('10.0.0.1', 0)]).toEqual(['none', false, false]);
    }
  });

  it('with a hop count, trusts that many hops from the socket whatever their addresses', () => {
    const one = parseTrustedProxies('1');
    expect([one.description, one.trusts('8.8.8.8', 0), one.trusts('127.0.0.1', 1)]).toEqual(['1 hop', true, false]);
    const two = parseTrustedProxies('2');
    expect([two.description, two.trusts('8.8.8.8', 1), two.trusts('8.8.8.8', 2)]).toEqual(['2 hops', true, false]);
  });

  it.each([
    ['loopback', '127.0.0.1', true],
    ['loopback', '127.0.0.2', true],
    ['loopback', '::1', true],
    ['loopback', '::ffff:127.0.0.1', true],
    ['loopback', '10.0.0.1', false],
    ['loopback', '192.168.1.7', false],
    ['10.244.0.0/16', '10.244.3.7', true],
    ['10.244.0.0/16', '10.245.0.1', false],
    ['10.244.0.0/16, 172.18.0.2', '172.18.0.2', true],
    ['10.244.0.0/16, 172.18.0.2', '172.18.0.3', false],
    ['uniquelocal', '172.20.0.3', true],
    ['uniquelocal', 'fd00::12', true],
    ['uniquelocal', '172.32.0.1', false],
    ['linklocal', '169.254.1.1', true],
    ['fd00::/8', 'fd12::1', true],
    ['fd00::/8', '2001:db8::1', false],
  ])('%s trusts %s: %s (at any hop)', (setting, address, trusted) => {
    const proxies = parseTrustedProxies(setting);
    expect([proxies.trusts(address, 0), proxies.trusts(address, 3)]).toEqual([trusted, trusted]);
  });

  it('trusts nothing that is not an address', () => {
    expect(parseTrustedProxies('loopback').trusts('localhost', 0)).toBe(false);
    expect(parseTrustedProxies('loopback').trusts('', 0)).toBe(false);
  });

  it.each(['private', 'constructor', '10.0.0.0/33', '10.0.0.0/8/1', '10.0.0', 'loopback,,', '-1', '1.5', '11'])('refuses %s', (value) => {
    expect(() => parseTrustedProxies(value)).toThrow(/^must be /);
  });
});
