// No test database of its own: the README run starts a whole stack (`npm start`'s dev runner),
// which brings its embedded database.
const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'readme-check',
  rootDir: __dirname,
  globalSetup: undefined,
  globalTeardown: undefined,
};
