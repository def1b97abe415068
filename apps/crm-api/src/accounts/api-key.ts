import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const hashApiKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** A new API key: 32 random bytes, URL-safe. */
export const generateApiKey = () => randomBytes(32).toString('base64url');

/** Compares a presented key with a stored hash in constant time. */
export function apiKeyMatches(presented: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const given = Buffer.from(hashApiKey(presented), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
