import pino from 'pino';
import { runStartUp } from './start-up';

const logger = pino({ level: 'silent' });
const delays = { firstMs: 10, maxMs: 40 };
const unavailable = () => Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:27017'), { name: 'MongoServerSelectionError' });

describe('runStartUp', () => {
  it('runs the steps in order, repeating each that fails because the database is unavailable until it succeeds', async () => {
    const calls: string[] = [];
    let connectFailures = 3;
    const done = await runStartUp(
      [
        {
          name: 'reaching the database',
          run: async () => {
            calls.push('connect');
            if (connectFailures-- > 0) throw unavailable();
          },
        },
        { name: 'creating indexes', run: async () => void calls.push('indexes') },
      ],
      { logger, signal: new AbortController().signal, delays },
    );
    expect(done).toBe(true);
    expect(calls).toEqual(['connect', 'connect', 'connect', 'connect', 'indexes']);
  });

  it('rejects on an error that is not the database being unavailable (no retry mends a bug)', async () => {
    let calls = 0;
    const run = async () => {
      calls++;
      throw new Error('CRM_ADMIN_EMAIL is not an email address');
    };
    await expect(runStartUp([{ name: 'preparing', run }], { logger, signal: new AbortController().signal, delays })).rejects.toThrow('CRM_ADMIN_EMAIL');
    expect(calls).toBe(1);
  });

  it('stops, resolving false, when aborted while waiting to try again', async () => {
    const abort = new AbortController();
    let calls = 0;
    const started = runStartUp(
      [
        {
          name: 'reaching the database',
          run: async () => {
            calls++;
            throw unavailable();
          },
        },
      ],
      { logger, signal: abort.signal, delays: { firstMs: 60_000, maxMs: 60_000 } },
    );
    await new Promise((r) => setTimeout(r, 20));
    abort.abort();
    expect(await started).toBe(false);
    expect(calls).toBe(1);
  });
});
