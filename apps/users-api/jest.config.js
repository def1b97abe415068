module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'users-api',
  rootDir: __dirname,
};
