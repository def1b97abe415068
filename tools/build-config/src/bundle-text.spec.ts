import path from 'node:path';
import { build } from 'esbuild';
import config from '../esbuild.config';

const root = path.join(__dirname, '..', '..', '..');

describe("the apps' bundles", () => {
  it.each(['crm-api', 'articles-api', 'news-api', 'users-api'])('%s: ASCII only, so that V8 holds its source in one byte per character', async (app) => {
    const { outputFiles } = await build({
      ...config,
      plugins: [], // the line-maps plugin rewrites the maps a build writes; this one writes nothing
      entryPoints: [path.join(root, 'apps', app, 'src/main.ts')],
      outdir: path.join(root, 'dist/bundle-text-check'),
      write: false,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      packages: 'external',
      tsconfig: path.join(root, 'apps', app, 'tsconfig.json'),
      logLevel: 'silent',
    });
    const [code] = outputFiles.map((file) => file.text);
    const others = [...code.matchAll(/[^\p{ASCII}].{0,40}/gu)].map((match) => match[0]);
    expect(others).toEqual([]);
    expect(code.length).toBeGreaterThan(50_000);
  });
});
