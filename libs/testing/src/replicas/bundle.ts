import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { bundleFile, REPO_ROOT } from '../esbuild-bundle';
// Inside node_modules, so the bundle's external packages resolve from the repository's node_modules.
const CACHE_DIR = path.join(REPO_ROOT, 'node_modules/.cache/replicas');

/**
 * Exits the process when the harness that started it goes away (its IPC channel closes), so a test
 * worker that dies, even by SIGKILL, leaves no replica behind.
 */
const ORPHAN_GUARD = "if (process.channel) { process.channel.unref(); process.on('disconnect', () => process.exit(1)); }";

const bundles = new Map<string, Promise<string>>();
const STALE_AFTER_MS = 60 * 60_000;

/** An entry file (`apps/crm-api/src/main.ts`, relative to the repository root or absolute) as a runnable script, built once per test process. */
export function bundleEntry(entry: string): Promise<string> {
  const source = path.resolve(REPO_ROOT, entry);
  let bundle = bundles.get(source);
  if (!bundle) {
    bundle = buildBundle(source);
    bundles.set(source, bundle);
    bundle.catch(() => bundles.delete(source));
  }
  return bundle;
}

async function buildBundle(source: string): Promise<string> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const name = path.relative(REPO_ROOT, source).replace(/[^a-z0-9]+/gi, '-');
  const outfile = path.join(CACHE_DIR, `${name}-${process.pid}-${Date.now().toString(36)}.js`);
  await bundleFile(source, outfile, { banner: ORPHAN_GUARD });
  removeStaleBundles();
  return outfile;
}

/** Bundles of earlier runs (a test process cannot reliably clean up after itself when it is killed). */
function removeStaleBundles(): void {
  const cutoff = Date.now() - STALE_AFTER_MS;
  for (const file of readdirSync(CACHE_DIR)) {
    const full = path.join(CACHE_DIR, file);
    try {
      if (statSync(full).mtimeMs < cutoff) rmSync(full, { force: true });
    } catch {
      // removed by a parallel run
    }
  }
}
