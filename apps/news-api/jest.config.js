module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'news-api',
  rootDir: __dirname,
  // Tests never reach the network: only loopback and the test database are reachable.
  setupFiles: ['<rootDir>/test/block-network.ts'],
};
