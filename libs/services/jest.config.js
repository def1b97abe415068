module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'services',
  rootDir: __dirname,
};
