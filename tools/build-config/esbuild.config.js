// @ts-check
const { lineSourceMaps } = require('./src/line-source-maps');

/**
 * The esbuild options every bundle of the workspace is built with (its project.json's
 * `esbuildConfig`). The source map is there for stack traces only (Node holds it in memory under
 * `--enable-source-maps`): without the sources' text, and line mappings (`lineSourceMaps`).
 * @type {import('esbuild').BuildOptions}
 */
module.exports = {
  outExtension: { '.js': '.js' },
  sourcesContent: false,
  plugins: [lineSourceMaps],
};
