module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'paging',
  rootDir: __dirname,
};
