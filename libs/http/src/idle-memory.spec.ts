import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVICE_NODE_FLAGS } from '@lib/services';
import { build } from 'esbuild';

/** V8 13 (Node 24) and later estimate the C++ heap's allocation rate with no lower bound. */
const unboundedEstimate = Number(process.versions.v8.split('.')[0]) >= 13;

let dir: string;
const bundle = () => path.join(dir, 'idle.js');

/**
 * A process under the services' flags that calls returnIdleMemory or not (its argument), fills and
 * drops about 25 MB, then idles with a timer every 2 s, as a service between requests does.
 */
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'idle-memory-'));
  await build({
    stdin: {
      contents: [
        "import { returnIdleMemory } from './idle-memory';",
        "if (process.argv[2] === 'nudged') returnIdleMemory();",
        'let held: unknown[] = [];',
        'for (let i = 0; i < 300; i++) held.push(Array.from({ length: 2_000 }, (_, j) => ({ i, j })));',
        'held = [];',
        "setInterval(() => process.stdout.write(''), 2_000);",
      ].join('\n'),
      resolveDir: __dirname,
      sourcefile: 'idle.ts',
      loader: 'ts',
    },
    outfile: bundle(),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'silent',
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the process with V8's trace flags until `done` says its output so far is enough (or 90 s pass); its output. */
function traceUntil(mode: 'nudged' | 'plain', traceFlags: string[], done: (trace: string) => boolean): Promise<string> {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...traceFlags, bundle(), mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  let trace = '';
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      child.kill();
      resolve(trace);
    };
    const timer = setTimeout(finish, 90_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      trace += chunk;
      if (done(trace)) finish();
    });
  });
}

const REDUCING_COLLECTION = /Mark-Compact \(reduce\) [\d.]+ \(([\d.]+)\) -> [\d.]+ \(([\d.]+)\) MB/;

describe('returnIdleMemory', () => {
  it('lets the memory reducer shrink an idle process after a load', async () => {
    // --trace-gc alone: Node 20 does not take V8's other trace flags
    const trace = await traceUntil('nudged', ['--trace-gc'], (t) => REDUCING_COLLECTION.test(t));
    const [, before, after] = REDUCING_COLLECTION.exec(trace) ?? [];
    expect(Number(after)).toBeLessThan(Number(before));
  }, 120_000);

  if (unboundedEstimate) {
    it(`is needed on this Node (V8 ${process.versions.v8}): without it the reducer counts the C++ heap's rate of 0 as high and starts nothing`, async () => {
      const verdictAfterZero = /Embedder mutator utilization = 0\.000 \(mutator_speed=0[^\n]*\n[^\n]*Memory reducer: high alloc/;
      const trace = await traceUntil('plain', ['--trace-gc', '--trace-memory-reducer', '--trace-mutator-utilization'], (t) => verdictAfterZero.test(t) || REDUCING_COLLECTION.test(t));
      expect(trace).toMatch(verdictAfterZero);
      expect(trace).not.toMatch(REDUCING_COLLECTION);
    }, 120_000);
  }
});
