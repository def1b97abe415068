module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'routing',
  rootDir: __dirname,
};
