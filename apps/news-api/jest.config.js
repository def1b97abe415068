module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'news-api',
  rootDir: __dirname,
  // every 2xx JSON body is checked against the schema its route declares
  setupFilesAfterEnv: ['<rootDir>/../../libs/routing/src/testing/check-responses.ts'],
  // Tests never reach the network: only loopback and the test database are reachable.
  setupFiles: ['<rootDir>/test/block-network.ts'],
};
