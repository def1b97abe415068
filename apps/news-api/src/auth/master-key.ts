import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares a presented value with the master key in constant time. */
export function masterKeyMatcher(masterKey: string): (given: string | undefined) => boolean {
  const expected = digest(masterKey);
  return (given) => given !== undefined && timingSafeEqual(digest(given), expected);
}
