// @ts-check
// Plain CommonJS: Nx loads the build's esbuild config with whatever Node runs it, Node 20 included.
const { readdirSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { decode, encode } = require('@jridgewell/sourcemap-codec');

/** @typedef {import('@jridgewell/sourcemap-codec').SourceMapSegment} SourceMapSegment */

/**
 * Whether two segments map to the same line of the same original file (a one-field segment maps to none).
 * @param {SourceMapSegment} a
 * @param {SourceMapSegment} b
 */
const sameLine = (a, b) => a.length > 1 && b.length > 1 && a[1] === b[1] && a[2] === b[2];

/**
 * A source map's `mappings` with, on each generated line, only the first segment of every run of
 * segments that map to one original line. A position in the bundle then maps to the same original
 * file and line as before (a lookup takes the last segment at or before the column, and what a
 * dropped segment said, the kept one before it says too); only the original column becomes the
 * run's first. esbuild writes a segment per token, and Node decodes every one into the heap
 * (`--enable-source-maps`): crm-api's map, 68,789 segments and the sources' text, held 8.3 MB of
 * heap for the process's life on Node 24; its 14,824 runs hold 1.5 (docs/BENCHMARKS.md, "Issue 27,
 * seventh round").
 * @param {string} mappings
 * @returns {string}
 */
function lineMappings(mappings) {
  return encode(
    decode(mappings).map((segments) => {
      /** @type {SourceMapSegment[]} */
      const kept = [];
      for (const segment of segments) {
        const last = kept.at(-1);
        if (last === undefined || !sameLine(last, segment)) kept.push(segment);
      }
      return kept;
    }),
  );
}

/**
 * Rewrites the `mappings` of every `.js.map` the build wrote to line mappings (`lineMappings`).
 * @type {import('esbuild').Plugin}
 */
const lineSourceMaps = {
  name: 'line-source-maps',
  setup(build) {
    build.onEnd((result) => {
      const { outdir, outfile } = build.initialOptions;
      const dir = outdir ?? (outfile ? path.dirname(outfile) : undefined);
      if (result.errors.length > 0 || dir === undefined) return;
      for (const name of readdirSync(dir).filter((file) => file.endsWith('.js.map'))) {
        const file = path.join(dir, name);
        const map = JSON.parse(readFileSync(file, 'utf8'));
        map.mappings = lineMappings(map.mappings);
        writeFileSync(file, JSON.stringify(map));
      }
    });
  },
};

module.exports = { lineMappings, lineSourceMaps };
