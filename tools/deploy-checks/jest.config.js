module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'deploy-checks',
  rootDir: __dirname,
};
