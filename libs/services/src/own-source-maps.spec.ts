import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.join(__dirname, '..', '..', '..');
const narrows = typeof (nodeModule as { setSourceMapsSupport?: unknown }).setSourceMapsSupport === 'function';

let dir: string;
const bundle = () => path.join(dir, 'out', 'entry.js');

/**
 * A bundle built as the apps' are (packages left to node_modules), whose entry imports
 * own-source-maps first, then loads bson (which ships a source map), reports which maps Node holds
 * and throws.
 */
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'own-source-maps-'));
  const source = path.join(dir, 'entry.ts');
  writeFileSync(
    source,
    [
      "import { ownSourceMapsOnly } from '@lib/services/own-source-maps';",
      "import { findSourceMap } from 'node:module';",
      "import { serialize } from 'bson';",
      'serialize({ loaded: true });',
      'const report = { own: findSourceMap(__filename) !== undefined, bson: findSourceMap(require.resolve("bson")) !== undefined, narrowed: ownSourceMapsOnly() };',
      'console.log(JSON.stringify(report));',
      "throw new Error('where am I');",
      '',
    ].join('\n'),
  );
  await build({
    entryPoints: [source],
    outdir: path.join(dir, 'out'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    sourcemap: true,
    tsconfig: path.join(root, 'tsconfig.base.json'),
    nodePaths: [path.join(root, 'node_modules')],
    logLevel: 'silent',
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(nodeArgs: string[]): { report: { own: boolean; bson: boolean; narrowed: boolean }; stderr: string } {
  const { status, stdout, stderr } = spawnSync(process.execPath, [...nodeArgs, bundle()], { encoding: 'utf8', env: { ...process.env, NODE_PATH: path.join(root, 'node_modules') } });
  expect(status).toBe(1);
  return { report: JSON.parse(stdout), stderr };
}

describe('own source maps only', () => {
  it(`under --enable-source-maps, keep the bundle's own map and ${narrows ? 'drop' : '(on this Node, which cannot narrow it) keep'} those of packages`, () => {
    const { report, stderr } = run(['--enable-source-maps']);
    expect(report).toEqual({ own: true, bson: !narrows, narrowed: narrows });
    expect(stderr).toMatch(/Error: where am I\n\s+at .*entry\.ts:7:\d+/);
  });

  it('change nothing without the flag', () => {
    const { report, stderr } = run([]);
    expect(report).toEqual({ own: false, bson: false, narrowed: false });
    expect(stderr).toMatch(/entry\.js:\d+/);
  });
});
