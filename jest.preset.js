// Shared jest settings: swc transpiles TypeScript (type checking is the `typecheck` target's job),
// and the tsconfig path aliases resolve to library sources.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias.replace(/[/]/g, '\\/')}$`,
    path.join(__dirname, target),
  ]),
);

/** Dependencies published as ES modules only (see `transform`). */
const ESM_ONLY = '(htmlparser2|domhandler|domutils|dom-serializer|domelementtype|entities)';

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
    // sanitize-html's parser (htmlparser2 and its dom packages) ships ES modules only: Node 24 requires
    // them as they are in production, jest's module registry does not, so swc makes them CommonJS here
    [`/node_modules/${ESM_ONLY}/.+\\.js$`]: ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!${ESM_ONLY}/)`],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testMatch: ['**/?(*.)spec.ts'],
  globalSetup: path.join(__dirname, 'libs/testing/src/database/global-setup.ts'),
  globalTeardown: path.join(__dirname, 'libs/testing/src/database/global-teardown.ts'),
  reporters: ['default', path.join(__dirname, 'tools/scripts/jest-results-reporter.js')],
  testTimeout: 20000,
  // Each test file in a fresh worker process. In one process (jest runs in band on two cores) the
  // files late in a run slow down whatever the heap holds (`node tools/scripts/jest-heap.js
  // <config>` prints it per file): crm-api's hostile-input took 65-75 s in a fresh process, 146 s
  // after 21 other files and 140 s after 39, 323 s late in a whole npm test, and 65 s in a fresh
  // process against the database server those 21 files had used. A fresh process costs about
  // 0.15 s a file (20 short crm-api files: 73.6 s, and 70.8 s in one process).
  workerIdleMemoryLimit: 0,
};
