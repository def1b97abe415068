import path from 'node:path';
import { build } from 'esbuild';

/** The repository root (this file is libs/testing/src/esbuild-bundle.ts). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * Bundles one entry file like the apps' `nx build` targets do (esbuild, CommonJS for Node 20,
 * node_modules left external) into `outfile`. Returns the packages the bundle requires at run time.
 */
export async function bundleFile(entry: string, outfile: string, options: { tsconfig?: string; banner?: string } = {}): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    ...(options.tsconfig && { tsconfig: options.tsconfig }),
    ...(options.banner && { banner: { js: options.banner } }),
    metafile: true,
    logLevel: 'error',
  });
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
  const packages = imports
    .filter((p) => !p.startsWith('node:') && !p.startsWith('.'))
    .map((p) => (p.startsWith('@') ? p.split('/').slice(0, 2).join('/') : p.split('/')[0]));
  return [...new Set(packages)].sort();
}
