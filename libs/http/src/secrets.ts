import { hash, timingSafeEqual } from 'node:crypto';

/** The SHA-256 digest of a text (UTF-8). */
export const sha256 = (text: string): Buffer => hash('sha256', text, 'buffer');

/** Whether two byte strings are equal, compared in constant time (their lengths are not secret). */
export const sameBytes = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

/**
 * A matcher for one configured secret (an API key, a master key): compares SHA-256 digests, so the
 * time taken tells nothing of either value's length or content.
 */
export function secretMatcher(secret: string): (given: string | undefined) => boolean {
  const expected = sha256(secret);
  return (given) => given !== undefined && sameBytes(sha256(given), expected);
}

/** The token of an `Authorization: Bearer <token>` header (the scheme in any case), if there is one. */
export function bearerToken(headers: { authorization?: string | string[] }): string | undefined {
  const header = headers.authorization;
  return typeof header === 'string' && /^Bearer /i.test(header) ? header.slice(7).trim() : undefined;
}
