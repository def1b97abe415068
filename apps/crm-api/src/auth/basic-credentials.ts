/**
 * The user name and password of an `Authorization: Basic …` header, or undefined when there are
 * none. The rules are passport-http's BasicStrategy as patched (patches/passport-http+0.3.0.patch),
 * which this replaces on crm's hot path (its per-request strategy object and closures): a header of
 * at least two space-separated parts whose first contains `Basic` (any case), the second decoded
 * from base64 as UTF-8, the user name up to the first colon and the password after it (RFC 7617),
 * neither empty.
 */
export function basicCredentials(authorization: string | undefined): { email: string; apiKey: string } | undefined {
  if (!authorization) return undefined;
  const parts = authorization.split(' ');
  if (parts.length < 2 || !/Basic/i.test(parts[0])) return undefined;
  const decoded = Buffer.from(parts[1], 'base64').toString();
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return undefined;
  return { email: decoded.slice(0, colon), apiKey: decoded.slice(colon + 1) };
}
