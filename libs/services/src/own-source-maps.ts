import nodeModule from 'node:module';

/** `module.setSourceMapsSupport` (Node 22.14 and 23.7 on; @types/node 20 does not declare it). */
type SetSourceMapsSupport = (enabled: boolean, options?: { nodeModules?: boolean; generatedCode?: boolean }) => void;

/**
 * Under `--enable-source-maps` (the image's CMD, `npm start`, the bench), keeps the source maps of
 * our own bundle only: Node also reads and holds, for the process's life, the map of every package
 * in node_modules that ships one (the mongodb driver's, BSON's, zod's…). Those packages' stack frames
 * then name their own .js files, which is what they publish; ours still name the TypeScript file and
 * line. Measured on Node 24: crm-api's live heap at start 1.8 MB smaller (docs/BENCHMARKS.md, "Issue
 * 27, eleventh round"). A no-op without the flag, and on Nodes that cannot narrow it (Node 20).
 *
 * Each app's main.ts imports this first, before anything loads a package: Node reads a module's
 * map when it loads it.
 */
export function ownSourceMapsOnly(): boolean {
  const set = (nodeModule as { setSourceMapsSupport?: SetSourceMapsSupport }).setSourceMapsSupport;
  if (!process.sourceMapsEnabled || set === undefined) return false;
  set(true, { nodeModules: false, generatedCode: false });
  return true;
}

ownSourceMapsOnly();
