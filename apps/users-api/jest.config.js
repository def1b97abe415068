module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'users-api',
  rootDir: __dirname,
  // every 2xx JSON body is checked against the schema its route declares
  setupFilesAfterEnv: ['<rootDir>/../../libs/routing/src/testing/check-responses.ts'],
};
