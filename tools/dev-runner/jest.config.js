module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'dev-runner',
  rootDir: __dirname,
};
