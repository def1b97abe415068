// Jest runs global setup outside the test environment, without the path aliases: hence the path.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../mongo/src/embedded';

declare global {
  var __EMBEDDED_MONGO__: EmbeddedMongo | undefined;
}

/**
 * Jest global setup: one database server per test run. MONGO_URL (a real MongoDB) wins; otherwise
 * the embedded server is started. Test files each take their own database on it.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.MONGO_URL) {
    process.env.TEST_MONGO_URL = process.env.MONGO_URL;
    return;
  }
  const embedded = await startEmbeddedMongo();
  globalThis.__EMBEDDED_MONGO__ = embedded;
  process.env.TEST_MONGO_URL = embedded.uri;
}
