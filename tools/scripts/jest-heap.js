#!/usr/bin/env node
// Heap a jest worker keeps between test files: runs one project's test files in one process
// (--runInBand) and prints, at the start of each file, the heap used after a full GC, i.e. what the
// files before it left alive plus this file's own modules. A worker that leaks grows by a module
// graph (~100 MB for an app) per file; one that does not stays flat.
//   node tools/scripts/jest-heap.js apps/crm-api/jest.config.js [test files or patterns…]
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const [config, ...files] = process.argv.slice(2);
if (!config) {
  console.error('usage: node tools/scripts/jest-heap.js <jest config> [test files…]');
  process.exit(2);
}
const configPath = path.resolve(config);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jest-heap-'));
const log = path.join(dir, 'heap.log');
const setup = path.join(dir, 'setup.js');
fs.writeFileSync(
  setup,
  `const v8 = require('node:v8');
v8.setFlagsFromString('--expose-gc');
const gc = require('node:vm').runInNewContext('gc');
beforeAll(() => {
  gc();
  gc();
  require('node:fs').appendFileSync(${JSON.stringify(log)}, process.memoryUsage().heapUsed + ' ' + expect.getState().testPath + '\\n');
});
`,
);
const wrapped = path.join(dir, 'jest.config.js');
fs.writeFileSync(
  wrapped,
  `const base = require(${JSON.stringify(configPath)});
module.exports = { ...base, rootDir: ${JSON.stringify(path.dirname(configPath))}, setupFilesAfterEnv: [...(base.setupFilesAfterEnv ?? []), ${JSON.stringify(setup)}] };
`,
);
const run = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '-c', wrapped, '--runInBand', '--ci', ...files], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
const summary = (run.stderr.match(/^Tests:.*$/m) ?? ['Tests: (no summary)'])[0];
const rows = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : [];
const root = path.resolve(__dirname, '..', '..');
rows.forEach((row, i) => {
  const [bytes, file] = row.split(' ');
  console.log(`${String(i + 1).padStart(3)}  ${String(Math.round(Number(bytes) / 1e6)).padStart(5)} MB  ${path.relative(root, file)}`);
});
console.log(summary);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(run.status ?? 1);
