import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compositionRow, memoryTable, memoryVerdict, soakMemory } from './memory-report';
import { readProbeFile, type ProbeSample } from './memory-sample';

const sample = (t: number, rssMb: number, heapUsedMb: number, liveHeapMb = NaN): ProbeSample => ({
  t,
  rssMb,
  rssAnonMb: rssMb - 44,
  rssFileMb: 44,
  heapTotalMb: 60,
  heapUsedMb,
  heapPhysicalMb: 50,
  liveHeapMb,
  liveArrayBuffersMb: 17.2,
  majorGcs: t / 1000, // a full collection between any two samples
  gcMs: t / 100,
  externalMb: 20,
  arrayBuffersMb: 18,
  mallocedMb: 0.5,
  heapLimitMb: 140,
  spaces: { new_space: { sizeMb: 8, usedMb: 3 }, old_space: { sizeMb: 40, usedMb: 30 }, code_space: { sizeMb: 3, usedMb: 2.5 }, large_object_space: { sizeMb: 2, usedMb: 2 } },
});

describe('bench memory report', () => {
  it('keeps only the samples inside the soak window, and reads each series start, end, max and second-half slope', () => {
    const samples = [sample(0, 200, 90, 30), ...[10, 20, 30, 40, 50].map((s, i) => sample(s * 1000, 120 + i, 40 + i * 2, 30 + i * 0.5)), sample(70_000, 300, 100)];
    const memory = soakMemory('users-api', 118, samples, { startedAt: 5_000, endedAt: 55_000 });
    expect(memory.rss).toEqual({ start: 120, end: 124, max: 124, secondHalfSlope: expect.closeTo(6, 5) });
    expect(memory.heapUsed).toMatchObject({ start: 40, end: 48, max: 48, secondHalfSlope: expect.closeTo(12, 5) });
    expect(memory.liveHeap).toMatchObject({ start: 30, end: 32, secondHalfSlope: expect.closeTo(3, 5) });
  });

  it('calls a miss over the limit at any point, and growth only when the resident set and the live heap both rise', () => {
    const flat = [0, 10, 20, 30, 40].map((s) => sample(s * 1000, 120, 50, 30));
    const window = { startedAt: 0, endedAt: 40_000 };
    expect(memoryVerdict(soakMemory('a', 120, flat, window))).toBe('ok');
    expect(memoryVerdict(soakMemory('a', 151, flat, window))).toBe('MISS: over 150 MB');
    const gcSwing = [0, 10, 20, 30, 40].map((s) => sample(s * 1000, 100 + s, 50 + s, 30));
    expect(memoryVerdict(soakMemory('a', 120, gcSwing, window))).toBe('ok');
    const leak = [0, 10, 20, 30, 40].map((s) => sample(s * 1000, 100 + s, 50 + s, 30 + s));
    expect(memoryVerdict(soakMemory('a', 120, leak, window))).toBe('MISS: RSS and live heap rising');
  });

  it('prints one row per app, and the composition of a sample', () => {
    const table = memoryTable([soakMemory('users-api', 118, [sample(0, 120, 40, 30), sample(1000, 121, 41, 30)], { startedAt: 0, endedAt: 1000 })]);
    expect(table.split('\n')).toHaveLength(3);
    expect(table).toContain('| users-api | 118.0 | 120.0 / 121.0 / 121.0 |');
    expect(table).toContain('| 30.0 / 30.0 (1) | n/a | n/a | ok |');
    const loaded = soakMemory('users-api', 118, [sample(0, 120, 40, 30), sample(1000, 121, 41, 30)], { startedAt: 0, endedAt: 1000 }, { requests: 100, cpuMs: 150 });
    expect(loaded.cpuMsPerRequest).toBe(1.5);
    expect(compositionRow('users-api', sample(0, 120, 40, 30))).toBe('| users-api | 120.0 | 44.0 | 76.0 | 50.0 | 8.0 | 40.0 | 3.0 | 2.0 | 40.0 | 30.0 | 20.0 | 18.0 | 17.2 | 0.5 | 26.0 |');
  });

  it('reads a probe file, skipping a line cut short when its process was killed', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'probe-')), 'app.jsonl');
    writeFileSync(file, `${JSON.stringify(sample(0, 120, 40))}\n${JSON.stringify(sample(1000, 121, 41))}\n{"t":20`);
    expect(readProbeFile(file).map((s) => s.rssMb)).toEqual([120, 121]);
    expect(readProbeFile(path.join(path.dirname(file), 'missing.jsonl'))).toEqual([]);
  });
});
