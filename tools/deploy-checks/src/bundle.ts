import path from 'node:path';
import { build } from 'esbuild';
import { fromRoot } from './workspace';

/**
 * Bundles an app like its `nx build` target does (esbuild, CommonJS, node_modules left external),
 * into `outdir`. Returns the packages the bundle requires at run time.
 */
export function bundleApp(name: string, outdir: string): Promise<{ main: string; packages: string[] }> {
  return bundleProject(path.join('apps', name), outdir);
}

/** Bundles the `src/main.ts` of a project folder (`apps/news-api`, `tools/gateway`) the same way. */
export async function bundleProject(project: string, outdir: string): Promise<{ main: string; packages: string[] }> {
  const main = path.join(outdir, 'main.js');
  const result = await build({
    entryPoints: [fromRoot(project, 'src', 'main.ts')],
    outfile: main,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    tsconfig: fromRoot(project, 'tsconfig.json'),
    metafile: true,
    logLevel: 'silent',
  });
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
  const packages = imports
    .filter((p) => !p.startsWith('node:') && !p.startsWith('.'))
    .map((p) => (p.startsWith('@') ? p.split('/').slice(0, 2).join('/') : p.split('/')[0]));
  return { main, packages: [...new Set(packages)].sort() };
}
