// Builds and source maps only: no test database.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'build-config',
  rootDir: __dirname,
  globalSetup: undefined,
  globalTeardown: undefined,
};
