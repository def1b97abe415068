import { addSummaries, SourceFiles, summarize, type CpuProfile } from './cpu-profile';

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0, columnNumber: 0 });

/** root → express → writev; root → driver → writeBuffer; root → jsonwebtoken → Hmac (crypto) → native; GC; idle; a builtin under zod. */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 4, 6, 9, 10, 11, 13] },
    { id: 2, callFrame: frame('send', '/w/node_modules/express/lib/response.js'), children: [3] },
    { id: 3, callFrame: frame('writev') },
    { id: 4, callFrame: frame('write', '/w/node_modules/mongodb/lib/cmap/connection.js'), children: [5] },
    { id: 5, callFrame: frame('writeBuffer') },
    { id: 6, callFrame: frame('verify', '/w/node_modules/jsonwebtoken/verify.js'), children: [7] },
    { id: 7, callFrame: frame('Hmac', 'node:internal/crypto/hash'), children: [8] },
    { id: 8, callFrame: frame('digest') },
    { id: 9, callFrame: frame('(garbage collector)') },
    { id: 10, callFrame: frame('(idle)') },
    { id: 11, callFrame: frame('parse', '/w/node_modules/zod/lib/types.js'), children: [12] },
    { id: 12, callFrame: frame('JSON.stringify') },
    { id: 13, callFrame: frame('@scope', '/w/node_modules/@acme/thing/index.js') },
  ],
  startTime: 1_000,
  endTime: 2_000,
  // one sample every 10 µs from 1,010 on
  samples: [3, 5, 5, 8, 9, 10, 12, 13, 3, 3],
  timeDeltas: [10, 10, 10, 10, 10, 10, 10, 10, 10, 10],
};

describe('CPU profile summary', () => {
  const files = new SourceFiles('/w');

  it('sums self time by category over the window, idle left out', () => {
    const summary = summarize(profile, 1_000, 1_080, files);
    expect(Object.fromEntries(summary.byCategory)).toEqual({
      'socket writes: HTTP': 10,
      'socket writes: database': 20,
      'crypto ← JWT': 10,
      GC: 10,
      'validation (zod)': 10,
      'other deps: @acme/thing': 10,
    });
    expect(summary.busyUs).toBe(70);
    expect(summary.byFunction.get('validation (zod): JSON.stringify ← parse (types.js:1)')).toBe(10);
  });

  it('reads only the samples inside the window', () => {
    const summary = summarize(profile, 1_085, 2_000, files);
    // the last sample has no following interval: it counts for nothing
    expect(Object.fromEntries(summary.byCategory)).toEqual({ 'socket writes: HTTP': 10 });
  });

  it('counts the 2.x driver (mongodb-core) as the database client, its socket writes as the database\'s', () => {
    const old: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2] },
        { id: 2, callFrame: frame('write', '/w/node_modules/mongodb-core/lib/connection/connection.js'), children: [3] },
        { id: 3, callFrame: frame('writeBuffer') },
      ],
      startTime: 0,
      endTime: 30,
      samples: [2, 3, 3],
      timeDeltas: [10, 10, 10],
    };
    expect(Object.fromEntries(summarize(old, 0, 30, files).byCategory)).toEqual({ driver: 10, 'socket writes: database': 10 });
  });

  it('adds the windows of several rounds', () => {
    const total = addSummaries([summarize(profile, 1_000, 1_030, files), summarize(profile, 1_000, 1_030, files)]);
    expect(total.busyUs).toBe(60);
    expect(total.byCategory.get('socket writes: database')).toBe(40);
  });
});
