import type { AnyRoute } from '@lib/routing';
import fc from 'fast-check';
import type { RawRequest } from './raw-client';
import { encode, bodyFields, bodyTypes, fillPath, formEncode, mediaType, pathParams, queryFields } from './route-shape';

/** Strings that have broken parsers, queries and encoders somewhere. */
const NASTY_STRINGS = [
  '', ' ', '0', '-1', '1.5', '1e3', '0x10', '9007199254740993', '9'.repeat(40), 'null', 'true', '[]', '{}',
  '$ne', '$where', '{"$ne":null}', '{"$gt":""}', 'a.b', '__proto__', 'constructor', 'toString', '<x>&amp;</x>', "' OR 1=1 --",
  '../../etc/passwd', '\u0000', '\u001f', '\ud800', '\uffff', 'é🙂', 'a@b.test', 'A'.repeat(2000), '%', '%zz', '["a"', '[1,2]',
];
export const nastyString = fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 12 }));

/** Values that would be query operators if they ever reached MongoDB as objects. */
export const OPERATOR_VALUES: unknown[] = [
  { $ne: null },
  { $gt: '' },
  { $where: 'sleep(1000) || true' },
  { $regex: '.*' },
  { $in: [1, 'a'] },
  { $exists: true },
  { 'a.b': 1 },
  [{ $ne: null }],
];
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.constantFrom(...OPERATOR_VALUES),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(nastyString, { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);
const nastyKey = (known: string[]) =>
  fc.oneof(
    ...(known.length ? [fc.constantFrom(...known)] : []),
    fc.constantFrom('$where', '$ne', 'a.b', '__proto__', 'constructor', 'x[$ne]', 'x[]', 'unknown_field', ...known.map((k) => `${k}[$ne]`), ...known.map((k) => `${k}.x`)),
    fc.string({ maxLength: 12 }),
  );

/** A query or form string: known and nasty keys with nasty values, sometimes repeated or badly encoded. */
const pairs = (known: string[]) =>
  fc.oneof(
    fc.array(fc.tuple(nastyKey(known), nastyValue), { maxLength: 5 }).map((entries) => entries.map(([k, v]) => formEncode({ [k]: v })).join('&')),
    fc.constantFrom('%zz=1', 'a=%E0%A4%A', '&&&', '=', 'a[b][c]=1', 'a=1&a=2', ...known.map((k) => `${k}=1&${k}=2`)),
  );

/** Deep nesting well past any schema: arrays, objects, and both mixed into a known field. */
const deepJson = fc.tuple(fc.integer({ min: 25, max: 3000 }), fc.constantFrom('array', 'object', 'field')).map(([depth, kind]) => {
  if (kind === 'array') return `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const nested = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return kind === 'object' ? nested : `{"properties":${nested}}`;
});

const MALFORMED_JSON = ['{', '{"a":1,}', "{'a':1}", 'NaN', '"text"', '1', 'null', '{"a":1}{"b":2}', '\u0000', '{"a":"\\x"}', '\uFEFF{}', '[1,2', '{"__proto__":{"polluted":1}}'];

type Body = { type: string; text: string } | undefined;

/** A body for the route: random or field-keyed JSON, forms, malformed or deep JSON, wrong types, none. */
function bodyArbitrary(route: AnyRoute): fc.Arbitrary<Body> {
  const fields = bodyFields(route);
  const jsonType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/vnd.api+json');
  const fieldObject = fc.dictionary(nastyKey(fields), nastyValue, { maxKeys: 5 });
  return fc.oneof(
    fc.tuple(jsonType, fc.oneof(fc.jsonValue({ maxDepth: 4 }), fieldObject)).map(([type, value]) => ({ type, text: JSON.stringify(value) ?? 'null' })),
    pairs(fields).map((text) => ({ type: 'application/x-www-form-urlencoded', text })),
    fc.constantFrom(...MALFORMED_JSON).map((text) => ({ type: 'application/json', text })),
    deepJson.map((text) => ({ type: 'application/json', text })),
    fc
      .tuple(
        fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/json; charset=utf-7', 'application/octet-stream', 'x/y', ''),
        fc.string({ maxLength: 50 }),
      )
      .map(([type, text]) => ({ type, text })),
    fc.constant(undefined),
    ...bodyTypes(route).map((t) => fc.constant({ type: mediaType(t), text: t === 'json' ? JSON.stringify({ x: 'A'.repeat(300_000) }) : `x=${'A'.repeat(300_000)}` })),
  );
}

const headerArbitrary = fc.record(
  {
    Accept: fc.constantFrom('*/*', 'application/json', 'application/xml', 'text/html', 'application/json;q=0', 'garbage', '*/*;q=x'),
    'X-Request-Id': fc.oneof(nastyString.map((s) => s.replace(/[^\x20-\x7e]/g, '')), fc.constant('ok-id-1')),
    'Content-Encoding': fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown'),
    'Accept-Charset': fc.constantFrom('utf-8', 'latin1', '*'),
  },
  { requiredKeys: [] },
);

/** A path segment: a sample value (an existing id, say), or something hostile, encoded or raw. */
const segmentArbitrary = (name: string, sample?: (name: string) => string | number | undefined) => {
  const known = sample?.(name);
  return fc.oneof(
    ...(known !== undefined ? [fc.constant(encode(String(known)))] : []),
    nastyString.map((s) => encode(s) || '0'),
    fc.constantFrom('%zz', '%', '%00', '..', '%2e%2e', '%E0%A4%A', '-0', '1%20', '007'),
  );
};

/** Random hostile requests for one route of the table (valid credentials added by the caller). */
export function hostileRequest(route: AnyRoute, sample?: (name: string) => string | number | undefined): fc.Arbitrary<RawRequest> {
  const segments = Object.fromEntries(pathParams(route).map((name) => [name, segmentArbitrary(name, sample)]));
  return fc
    .record({
      segments: fc.record(segments),
      query: fc.option(pairs(queryFields(route)), { nil: undefined }),
      body: bodyArbitrary(route),
      headers: headerArbitrary,
    })
    .map(({ segments: values, query, body, headers }) => {
      const path = fillPath(route, (name) => (values as Record<string, string>)[name]);
      const out: Record<string, string> = { ...(headers as Record<string, string>) };
      if (body) out['Content-Type'] = body.type;
      else delete out['Content-Encoding'];
      return { method: route.method, url: query ? `${path}?${query}` : path, headers: out, body: body?.text };
    });
}
