import { z } from 'zod';
import { baseEnvShape, parseEnv, placeholderReason, readServiceEnv, refusePlaceholderSecrets } from './env';

const schema = z.object({ ...baseEnvShape, SECRET: z.string().min(8, 'must be at least 8 characters') });

describe('parseEnv with the base variables', () => {
  it('applies defaults and ignores unrelated variables', () => {
    expect(parseEnv(schema, { SECRET: '12345678', PATH: '/usr/bin' })).toEqual({
      NODE_ENV: 'development',
      PORT: 3000,
      LOG_LEVEL: 'info',
      BIND_ADDRESS: '127.0.0.1',
      TRUST_PROXY: expect.objectContaining({ description: 'none' }),
      SECRET: '12345678',
    });
  });

  it('parses given values', () => {
    const env = parseEnv(schema, { SECRET: '12345678', NODE_ENV: 'production', PORT: '8080', LOG_LEVEL: 'silent' });
    expect(env).toMatchObject({ NODE_ENV: 'production', PORT: 8080, LOG_LEVEL: 'silent' });
  });

  it.each(['abc', '0', '65536', '-1', '80.5', ' 80', '123456'])('rejects PORT=%j', (port) => {
    expect(() => parseEnv(schema, { SECRET: '12345678', PORT: port })).toThrow(/PORT: /);
  });

  it('names every bad variable in one message', () => {
    let message = '';
    try {
      parseEnv(schema, { NODE_ENV: 'prod', LOG_LEVEL: 'INFO', SECRET: 'short' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration:\n/);
    expect(message).toContain('  NODE_ENV: ');
    expect(message).toContain('  LOG_LEVEL: ');
    expect(message).toContain('  SECRET: must be at least 8 characters');
    expect(message).not.toContain('PORT');
  });

  it('reports a missing required variable', () => {
    expect(() => parseEnv(schema, {})).toThrow(/SECRET: /);
  });
});

describe('placeholderReason and refusePlaceholderSecrets', () => {
  const random = '0f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4e5f6';

  it.each([
    ['change-me', /placeholder \(contains "change-me"\)/],
    ['CHANGEME-0f1e2d3c4b5a69788796a5b4c3d2e1f0', /placeholder \(contains "CHANGEME"\)/],
    ['please-replace_me-0f1e2d3c4b5a69788796a5b4c3d2e1f0', /placeholder/],
    ['my-example-secret-0f1e2d3c4b5a69788796a5b4c3d2e1f0', /placeholder \(contains "example"\)/],
    ['xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', /placeholder \(contains "xxx"\)/],
    ['<your-secret-here-0f1e2d3c4b5a69788796a5b4c3>', /placeholder/],
    ['secret', /shorter than 32/],
    ['0f1e2d3c4b5a6978879', /shorter than 32/],
    ['abababababababababababababababababab', /fewer than 8 different characters/],
  ])('%j is refused', (value, reason) => {
    expect(placeholderReason(value)).toMatch(reason);
  });

  it('refuses the development values it is given, and takes random ones', () => {
    expect(placeholderReason('a-public-value-everyone-knows-0123456789', ['a-public-value-everyone-knows-0123456789'])).toBe('is a public development value');
    expect(placeholderReason(random)).toBeUndefined();
    expect(placeholderReason('Zq8vN3kR7tY2wP5mX9bC4hJ6gL1fD0sA')).toBeUndefined();
  });

  it('names every bad secret in production only, and leaves unset ones alone', () => {
    const env = { A_KEY: 'change-me', B_SECRET: 'short', C_SECRET: random, D_KEY: undefined, E_KEY: '' };
    const names = ['A_KEY', 'B_SECRET', 'C_SECRET', 'D_KEY', 'E_KEY'];
    expect(() => refusePlaceholderSecrets(env, names, false)).not.toThrow();
    let message = '';
    try {
      refusePlaceholderSecrets(env, names, true);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'Invalid configuration (NODE_ENV=production):',
      expect.stringMatching(/^ {2}A_KEY: looks like a placeholder \(contains "change-me"\); use a random value of 32\+ characters/),
      expect.stringMatching(/^ {2}B_SECRET: is shorter than 32 characters; /),
    ]);
  });
});

describe('readServiceEnv', () => {
  const service = z.object({ ...baseEnvShape, TOKEN: z.string().optional(), KEY: z.string().optional() });
  const secrets = { devDefaults: { TOKEN: 'development-token' }, checked: ['TOKEN', 'KEY'] };

  it('gives the base settings, fills a missing secret with its development default outside production and lists it', () => {
    const read = readServiceEnv(service, { PORT: '8081', LOG_LEVEL: 'warn' }, secrets);
    expect({ base: read.base, values: read.values, defaultsUsed: read.defaultsUsed }).toEqual({
      base: { production: false, port: 8081, bindAddress: '127.0.0.1', trustedProxies: expect.objectContaining({ description: 'none' }), logLevel: 'warn' },
      values: { TOKEN: 'development-token' },
      defaultsUsed: ['TOKEN=development-token'],
    });
  });

  it('in production requires the defaulted secrets and refuses a placeholder in any checked one', () => {
    expect(() => readServiceEnv(service, { NODE_ENV: 'production' }, secrets)).toThrow('TOKEN: is required when NODE_ENV=production');
    expect(() => readServiceEnv(service, { NODE_ENV: 'production', TOKEN: 'q7Vf2LmX9pR4tZ8wK1nB6yH3cJ5dG0sA', KEY: 'changeme' }, secrets)).toThrow(/KEY: looks like a placeholder/);
    const read = readServiceEnv(service, { NODE_ENV: 'production', TOKEN: 'q7Vf2LmX9pR4tZ8wK1nB6yH3cJ5dG0sA' }, secrets);
    expect({ base: read.base, values: read.values, defaultsUsed: read.defaultsUsed }).toEqual({
      base: { production: true, port: 3000, bindAddress: '127.0.0.1', trustedProxies: expect.objectContaining({ description: 'none' }), logLevel: 'info' },
      values: { TOKEN: 'q7Vf2LmX9pR4tZ8wK1nB6yH3cJ5dG0sA' },
      defaultsUsed: [],
    });
  });
});

describe('BIND_ADDRESS and TRUST_PROXY of every service', () => {
  const service = z.object(baseEnvShape);
  const read = (env: NodeJS.ProcessEnv) => readServiceEnv(service, env, { checked: [] }).base;

  it('listens on loopback and trusts no proxy unless told, production included (containers set both)', () => {
    for (const env of [{}, { NODE_ENV: 'production' }]) {
      const base = read(env);
      expect([base.bindAddress, base.trustedProxies.description, base.trustedProxies.trusts('127.0.0.1', 0)]).toEqual(['127.0.0.1', 'none', false]);
    }
  });

  it('takes the address and the proxies it is given', () => {
    const base = read({ BIND_ADDRESS: '0.0.0.0', TRUST_PROXY: '1' });
    expect([base.bindAddress, base.trustedProxies.description, base.trustedProxies.trusts('10.1.2.3', 0)]).toEqual(['0.0.0.0', '1 hop', true]);
    expect(read({ TRUST_PROXY: 'loopback' }).trustedProxies.trusts('127.0.0.1', 0)).toBe(true);
  });

  it('stops the process naming each bad value', () => {
    expect(() => read({ BIND_ADDRESS: 'localhost', TRUST_PROXY: 'private' })).toThrow(
      [
        'Invalid configuration:',
        '  BIND_ADDRESS: must be an IP address (127.0.0.1, 0.0.0.0, ::), got "localhost"',
        '  TRUST_PROXY: must be a hop count (1) or a list of addresses, CIDRs (10.0.0.0/8) and loopback, linklocal, uniquelocal; "private" is none of these',
      ].join('\n'),
    );
  });
});
