module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'crm-api',
  rootDir: __dirname,
};
