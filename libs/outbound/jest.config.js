module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'outbound',
  rootDir: __dirname,
};
