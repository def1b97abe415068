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

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testMatch: ['**/?(*.)spec.ts'],
  globalSetup: path.join(__dirname, 'libs/testing/src/database/global-setup.ts'),
  globalTeardown: path.join(__dirname, 'libs/testing/src/database/global-teardown.ts'),
  reporters: ['default', path.join(__dirname, 'tools/scripts/jest-results-reporter.js')],
  testTimeout: 20000,
  // No workerIdleMemoryLimit: a worker keeps no test file's module graph beyond a few recent ones
  // (`node tools/scripts/jest-heap.js <config>` prints it per file; docs/ARCHITECTURE.md, "Jest worker heap").
};
