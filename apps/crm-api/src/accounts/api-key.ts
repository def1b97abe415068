import { sameBytes, sha256 } from '@lib/http';
import { randomBytes } from 'node:crypto';

export const hashApiKey = (key: string) => sha256(key).toString('hex');

/** A new API key: 32 random bytes, URL-safe. */
export const generateApiKey = () => randomBytes(32).toString('base64url');

/** Compares a presented key with a stored hash in constant time. */
export function apiKeyMatches(presented: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  return sameBytes(sha256(presented), Buffer.from(storedHash, 'hex'));
}
