import path from 'node:path';
import { build, stop } from 'esbuild';

/** The repository root (this file is libs/testing/src/esbuild-bundle.ts). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** Builds in progress in this module graph: the esbuild service stops when the last one ends. */
let building = 0;

/**
 * Bundles one entry file like the apps' `nx build` targets do (esbuild, CommonJS for the oldest supported Node,
 * node_modules left external) into `outfile`. Returns the packages the bundle requires at run time.
 */
export async function bundleFile(entry: string, outfile: string, options: { tsconfig?: string; banner?: string } = {}): Promise<string[]> {
  building += 1;
  try {
    return externalPackages(await buildBundle(entry, outfile, options));
  } finally {
    building -= 1;
    // esbuild keeps a service child process (and its stdout pipe) open until stopped; in a test run
    // that pipe would keep this test file's whole module graph alive for the rest of the jest worker.
    if (building === 0) await stop();
  }
}

function buildBundle(entry: string, outfile: string, options: { tsconfig?: string; banner?: string }) {
  return build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    packages: 'external',
    ...(options.tsconfig && { tsconfig: options.tsconfig }),
    ...(options.banner && { banner: { js: options.banner } }),
    metafile: true,
    logLevel: 'error',
  });
}

/** The packages a bundle requires at run time (node_modules left external). */
function externalPackages(result: Awaited<ReturnType<typeof buildBundle>>): string[] {
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
  const packages = imports
    .filter((p) => !p.startsWith('node:') && !p.startsWith('.'))
    .map((p) => (p.startsWith('@') ? p.split('/').slice(0, 2).join('/') : p.split('/')[0]));
  return [...new Set(packages)].sort();
}
