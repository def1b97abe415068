import { revocationLog } from '@lib/mongo';
import type { Connection } from 'mongoose';
import { createCredentialCache, CREDENTIAL_TTL_MS, type CredentialCache } from '../accounts/credential-cache';

const caches = new WeakMap<Connection, CredentialCache>();

/**
 * One credential cache per database connection: shared by every account service built on it (the
 * app's, the admin commands', a test's: sign-in and user changes) and by the stores' owner reads.
 */
export function credentialCache(connection: Connection): CredentialCache {
  let cache = caches.get(connection);
  if (!cache) {
    cache = createCredentialCache(CREDENTIAL_TTL_MS, revocationLog(connection));
    caches.set(connection, cache);
  }
  return cache;
}
