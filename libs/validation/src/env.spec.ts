import { z } from 'zod';
import { baseEnvShape, parseEnv } from './env';

const schema = z.object({ ...baseEnvShape, SECRET: z.string().min(8, 'must be at least 8 characters') });

describe('parseEnv with the base variables', () => {
  it('applies defaults and ignores unrelated variables', () => {
    expect(parseEnv(schema, { SECRET: '12345678', PATH: '/usr/bin' })).toEqual({
      NODE_ENV: 'development',
      PORT: 3000,
      LOG_LEVEL: 'info',
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
