module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'http',
  rootDir: __dirname,
};
