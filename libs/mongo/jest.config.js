module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'mongo',
  rootDir: __dirname,
};
