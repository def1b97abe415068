import type { Endpoint } from './endpoints';
import type { MeasureOptions } from './measure';

/**
 * The command-line options of the tools that measure rows in interleaved rounds of a fixed number
 * of requests (ab.ts, profile.ts), for `parseArgs`.
 */
export function roundOptions(defaultRounds: number) {
  return {
    /** Only the rows whose name contains this text (or one of these, comma-separated; `=name`: that name exactly). */
    only: { type: 'string' },
    rounds: { type: 'string', default: String(defaultRounds) },
    requests: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '500' },
    connections: { type: 'string', default: '10' },
    seed: { type: 'string', default: '200' },
  } as const;
}

/** One run of a row: a fixed number of requests after a fixed number of warm-up requests. */
export const measureOptionsOf = (args: { requests: string; warmup: string; connections: string }): MeasureOptions => ({
  connections: Number(args.connections),
  durationSeconds: 0,
  warmupSeconds: 0,
  requests: Number(args.requests),
  warmupRequests: Number(args.warmup),
});

/**
 * The rows whose name contains `only` (or one of its comma-separated parts); a part `=name` keeps
 * the row of exactly that name (one whose name starts another's: `=news GET /news?company=BHP`);
 * all without it.
 */
export const rowsNamed = (rows: Endpoint[], only: string | undefined) =>
  rows.filter((row) => !only || only.split(',').some((part) => (part.startsWith('=') ? row.name === part.slice(1) : row.name.includes(part))));

/** Runs each of `runs` once, starting at a different one each round (`round`): no side always runs first, or last. Answers their results in the order given. */
export async function inRotatingOrder<T>(round: number, runs: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = [];
  for (let k = 0; k < runs.length; k++) {
    const i = (round + k) % runs.length;
    results[i] = await runs[i]();
  }
  return results;
}

/** The reads first, then the writes: a write row adds records that a read row after it would read (and the embedded database slows down as its collections grow). */
const isRead = (row: Endpoint) => row.ours.method === 'GET';
export const readsFirst = <E extends Endpoint>(rows: E[]): E[] => [...rows.filter(isRead), ...rows.filter((row) => !isRead(row))];
