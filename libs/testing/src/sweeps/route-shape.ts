import { BODY_MEDIA_TYPES, type AnyRoute, type BodyType } from '@lib/routing';
import type { z } from 'zod';
import { toXml } from '@lib/http';

/** Names of the `:params` in a route path. */
export const pathParams = (route: AnyRoute) => [...route.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);

/** The field names of an object schema (empty when the schema is not a plain object). */
export function fieldsOf(schema: z.ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : [];
}

export const queryFields = (route: AnyRoute) => fieldsOf(route.request?.query);
export const bodyFields = (route: AnyRoute) => fieldsOf(route.request?.body);
export const bodyTypes = (route: AnyRoute): BodyType[] => (route.request?.body ? (route.request.bodyTypes ?? ['json']) : []);
export const mediaType = (type: BodyType) => BODY_MEDIA_TYPES[type];

/** The route's path with every `:param` replaced by `value(name)` (already encoded). */
export const fillPath = (route: AnyRoute, value: (name: string) => string) => route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => value(name));

const CANDIDATES: unknown[] = ['Sweep', 1, 0, true, ['Sweep'], 'sweep@example.test', [], {}, '1'];

/**
 * A body (or query) for an object schema whose fields named in `values` carry those values and
 * whose other fields get the first simple value their schema accepts; optional fields nothing
 * fits are left out. Cross-field rules may still refuse it: the sweeps only need plausible input.
 */
export function plausibleObject(schema: z.ZodType | undefined, values: Record<string, unknown>): Record<string, unknown> {
  const shape = (schema as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  if (!shape) return { ...values };
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    if (key in values) {
      out[key] = values[key];
      continue;
    }
    const fit = CANDIDATES.find((candidate) => field.safeParse(candidate).success);
    if (fit !== undefined && !field.safeParse(undefined).success) out[key] = fit;
  }
  return out;
}

/** Percent-encodes the UTF-8 bytes of any string (a lone surrogate goes as U+FFFD instead of throwing). */
const byteByByte = (value: string) =>
  [...Buffer.from(value, 'utf8')].map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

/**
 * Percent-encodes every byte of the UTF-8 text but the unreserved characters (RFC 3986); a lone
 * surrogate goes as U+FFFD's bytes. encodeURIComponent does the same (also leaving `!*'()`) in
 * native code: bodies at a body limit of megabytes are encoded in milliseconds, not seconds.
 */
export const encode = (value: string): string => {
  try {
    return encodeURIComponent(value).replace(/[!*'()]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    return byteByByte(value); // a lone surrogate (URIError)
  }
};

/** Encodes a flat object as a form or query string; arrays and objects become JSON text (form-array style). */
export const formEncode = (values: Record<string, unknown>) =>
  Object.entries(values)
    .map(([k, v]) => `${encode(k)}=${encode(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`)
    .join('&');

/** A body object in the route's body type: JSON text, a form, or XML (repeated elements for lists). */
export const encodeBody = (type: BodyType, body: Record<string, unknown>) =>
  type === 'json' ? JSON.stringify(body) : type === 'xml' ? toXml(body, 'body') : formEncode(body);
