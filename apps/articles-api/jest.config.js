module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'articles-api',
  rootDir: __dirname,
};
