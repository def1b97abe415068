import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks' secret prefix; the rest is the key's bytes in base64. */
export const SECRET_PREFIX = 'whsec_';
/** Random bytes of a new secret (the standard asks for 24 to 64). */
export const SECRET_BYTES = 32;

/** A new signing secret, `whsec_` + 32 random bytes in base64. */
export const newSecret = (): string => SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');

/** The HMAC key of a secret: the bytes its base64 part stands for. */
export const secretKey = (secret: string): Buffer => Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');

/** One `v1,<base64>` signature: HMAC-SHA256 of `${id}.${timestamp}.${body}` with the secret's key. */
export const signature = (secret: string, id: string, timestamp: number, body: string): string =>
  `v1,${createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;

/** The three Standard Webhooks headers of one attempt, the signature of every secret given (space-separated: old and new during a rotation). */
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs one attempt as Standard Webhooks describes: `webhook-id` (the event's id, the same on every
 * attempt), `webhook-timestamp` (this attempt's time in seconds: receivers refuse old ones, so it
 * is signed anew each time) and `webhook-signature` with one `v1,` signature per secret.
 */
export function signedHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): SignedHeaders {
  if (!secrets.length) throw new Error('no secret to sign with');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => signature(secret, id, timestampSeconds, body)).join(' '),
  };
}
