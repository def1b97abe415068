import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload, type SourceMapping } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import config from '../esbuild.config';
import { lineSourceMaps } from './line-source-maps';

const root = path.join(__dirname, '..', '..', '..');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'line-source-maps-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An app's entry bundled as the apps are (its packages left to node_modules), with the plugin or without. */
async function bundle(outdir: string, withPlugin: boolean): Promise<{ code: string; map: SourceMapPayload }> {
  await build({
    entryPoints: { main: path.join(root, 'apps/users-api/src/main.ts') },
    outdir: path.join(dir, outdir),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    sourcemap: true,
    tsconfig: path.join(root, 'apps/users-api/tsconfig.json'),
    logLevel: 'silent',
    plugins: withPlugin ? [lineSourceMaps] : [],
  });
  const read = (name: string) => readFileSync(path.join(dir, outdir, name), 'utf8');
  return { code: read('main.js'), map: JSON.parse(read('main.js.map')) as SourceMapPayload };
}

describe('line source maps', () => {
  it('map every position of a real bundle to the same file and line as the full map, with a fraction of its segments', async () => {
    const full = await bundle('full', false);
    const lines = await bundle('lines', true);
    expect(lines.code).toBe(full.code);
    const segments = (map: SourceMapPayload) => map.mappings.split(/[;,]/).filter(Boolean).length;
    expect(segments(lines.map)).toBeLessThan(segments(full.map) / 3);

    const before = new SourceMap(full.map);
    const after = new SourceMap(lines.map);
    // findEntry answers {} where nothing is mapped
    const fileAndLine = (map: SourceMap, line: number, column: number) => {
      const entry: Partial<SourceMapping> = map.findEntry(line, column);
      return [entry.originalSource, entry.originalLine];
    };
    let mapped = 0;
    full.code.split('\n').forEach((text, line) => {
      for (let column = 0; column <= text.length; column++) {
        const want = fileAndLine(before, line, column);
        expect(fileAndLine(after, line, column)).toEqual(want);
        if (want[0] !== undefined) mapped++;
      }
    });
    expect(mapped).toBeGreaterThan(50_000);
  });

  it('leave a stack trace naming the TypeScript file and line under --enable-source-maps, and no sources in the map', async () => {
    const source = path.join(dir, 'fails.ts');
    writeFileSync(
      source,
      ['interface Order { id: number }', 'export function check(order: Order): number {', "  if (order.id < 0) throw new Error('negative');", '  return order.id;', '}', 'check({ id: -1 });', ''].join('\n'),
    );
    await build({ ...config, entryPoints: [source], outdir: path.join(dir, 'out'), bundle: true, platform: 'node', format: 'cjs', sourcemap: true, logLevel: 'silent' });
    expect(JSON.parse(readFileSync(path.join(dir, 'out', 'fails.js.map'), 'utf8'))).not.toHaveProperty('sourcesContent');
    let stderr = '';
    try {
      execFileSync(process.execPath, ['--enable-source-maps', path.join(dir, 'out', 'fails.js')], { stdio: 'pipe' });
    } catch (error) {
      stderr = String((error as { stderr: Buffer }).stderr);
    }
    expect(stderr).toContain('Error: negative');
    expect(stderr).toMatch(/at check \(.*fails\.ts:3:\d+\)/);
    expect(stderr).toMatch(/fails\.ts:6:\d+\)?\n/);
  });
});
