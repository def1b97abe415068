import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { toXml } from './xml';

const DECL = '<?xml version="1.0" encoding="UTF-8"?>';

describe('toXml', () => {
  it('wraps an object in the root element, one element per key', () => {
    expect(toXml({ id: 1, name: 'Ada' }, 'contact')).toBe(`${DECL}<contact><id>1</id><name>Ada</name></contact>`);
  });

  it('renders an array as repeated elements named after its key', () => {
    expect(toXml({ tags: ['vip', 'lead'] }, 'contact')).toBe(`${DECL}<contact><tags>vip</tags><tags>lead</tags></contact>`);
    expect(toXml({ tags: [] }, 'contact')).toBe(`${DECL}<contact/>`);
  });

  it('renders a top-level array as root with item elements', () => {
    expect(toXml([{ id: 1 }, { id: 2 }], 'contacts', 'contact')).toBe(
      `${DECL}<contacts><contact><id>1</id></contact><contact><id>2</id></contact></contacts>`,
    );
    expect(toXml(['a'], 'list')).toBe(`${DECL}<list><item>a</item></list>`);
    expect(toXml([], 'contacts', 'contact')).toBe(`${DECL}<contacts/>`);
  });

  it('nests objects, including objects inside arrays', () => {
    expect(toXml({ address: { city: 'Sydney', geo: { lat: -33.9 } } }, 'contact')).toBe(
      `${DECL}<contact><address><city>Sydney</city><geo><lat>-33.9</lat></geo></address></contact>`,
    );
    expect(toXml({ properties: [{ name: 'first_name', value: 'Ada' }, { name: 'age', value: 36 }] }, 'contact')).toBe(
      `${DECL}<contact><properties><name>first_name</name><value>Ada</value></properties><properties><name>age</name><value>36</value></properties></contact>`,
    );
  });

  it('skips null and undefined values, at the top and inside arrays', () => {
    expect(toXml({ a: null, b: undefined, c: [null, 'x'], d: 'kept' }, 'r')).toBe(`${DECL}<r><c>x</c><d>kept</d></r>`);
    expect(toXml(null, 'r')).toBe(`${DECL}<r/>`);
  });

  it('writes booleans, numbers, zero, empty strings and dates as text', () => {
    expect(toXml({ yes: true, no: false, n: 0, f: 1.5, neg: -2, s: '', at: new Date('2024-05-06T07:08:09.000Z') }, 'r')).toBe(
      `${DECL}<r><yes>true</yes><no>false</no><n>0</n><f>1.5</f><neg>-2</neg><s></s><at>2024-05-06T07:08:09.000Z</at></r>`,
    );
  });

  it('escapes markup characters in text', () => {
    const xml = toXml({ note: 'a < b && c > d', name: '</name><admin>true</admin>' }, 'r');
    expect(xml).toContain('<note>a &lt; b &amp;&amp; c &gt; d</note>');
    expect(xml).toContain('<name>&lt;/name&gt;&lt;admin&gt;true&lt;/admin&gt;</name>');
    expect(xml).not.toContain('<admin>');
  });

  it('replaces characters XML cannot carry, keeping tabs and newlines', () => {
    expect(toXml({ v: 'a\u0001b\u0000c\uFFFEd' }, 'r')).toBe(`${DECL}<r><v>a\uFFFDb\uFFFDc\uFFFDd</v></r>`);
    expect(toXml({ v: 'tab\there\nnext' }, 'r')).toBe(`${DECL}<r><v>tab\there\nnext</v></r>`);
    expect(toXml({ v: 'emoji 😀 ok' }, 'r')).toBe(`${DECL}<r><v>emoji 😀 ok</v></r>`);
  });

  it('writes a top-level scalar as the root text', () => {
    expect(toXml('hi & bye', 'message')).toBe(`${DECL}<message>hi &amp; bye</message>`);
    expect(toXml(3, 'count')).toBe(`${DECL}<count>3</count>`);
  });
});

/** The renderer toXml replaced: an xmlbuilder2 document built element by element, then serialised. */
function previousToXml(value: unknown, root: string, item = 'item'): string {
  const text = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v)).replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
  const append = (parent: XMLBuilder, name: string, v: unknown): void => {
    if (v === undefined || v === null) return;
    if (Array.isArray(v)) return v.forEach((entry) => append(parent, name, entry));
    const element = parent.ele(name);
    if (typeof v === 'object' && !(v instanceof Date)) Object.entries(v).forEach(([key, child]) => append(element, key, child));
    else element.txt(text(v));
  };
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const rootElement = doc.ele(root);
  if (Array.isArray(value)) value.forEach((entry) => append(rootElement, item, entry));
  else if (typeof value === 'object' && value !== null) Object.entries(value).forEach(([key, child]) => append(rootElement, key, child));
  else if (value !== undefined && value !== null) rootElement.txt(text(value));
  return doc.end({ prettyPrint: false });
}

/** A small deterministic generator (mulberry32), so a failing document can be reproduced. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('toXml against the xmlbuilder2 document renderer it replaced', () => {
  const TEXTS = ['', 'plain', 'a & b', '<tag attr="x">', "it's \"quoted\"", 'x > y', ']]>', 'tab\tnew\nline\r\n', 'bell\u0007nul\u0000', 'lone \uD800 surrogate', '\uFFFE\uFFFF', 'Zoë 東京 😀', '  spaced  '];
  const NAMES = ['id', 'name', 'value', 'properties', 'domainUser', 'a-b.c_d', 'é', 'x:y', 'Ω'];

  function document(next: () => number, depth: number): unknown {
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
    const roll = next();
    if (depth > 3 || roll < 0.45) {
      return pick<unknown>([pick(TEXTS), 0, -1.5, 1e21, Number.NaN, true, false, null, undefined, new Date(Math.floor(next() * 2e12)), 42n]);
    }
    if (roll < 0.65) return Array.from({ length: Math.floor(next() * 4) }, () => document(next, depth + 1));
    return Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, () => [pick(NAMES), document(next, depth + 1)]));
  }

  it('writes the same bytes for a varied contact-like document', () => {
    const owner = { id: 7, email: 'o\'brien&co@example.com', is_admin: true, is_disabled: false, name: 'Zoë <Owner>', info_json_string: '{"a":"b"}' };
    const page = [
      { id: 1, type: 'PERSON', tags: ['vip', 'a&b', ''], lead_score: 0, star_value: -3, properties: [{ type: 'SYSTEM', name: 'first_name', value: 'Ada "The" Lovelace' }, { name: 'note', value: 'tab\there\u0001\u001f' }], campaignStatus: [], domainUser: owner, count: 2, empty: {}, nested: { deeper: { deepest: [1, [2, 3], null, { x: '' }] } }, gone: null, missing: undefined, at: new Date(0) },
      { id: 2, tags: [], properties: [], emoji: '😀 東京 ÿ', ratio: 0.1 + 0.2, big: -1e-7, yes: true, cursor: 'abc.def', domainUser: owner },
    ];
    for (const [value, root, item] of [[page, 'contacts', 'contact'], [page[0], 'contact', undefined], [{ list: page }, 'r', undefined]] as const) {
      expect(toXml(value, root, item)).toBe(previousToXml(value, root, item));
    }
  });

  it('writes the same bytes for 500 random documents', () => {
    const next = random(20261122);
    for (let n = 0; n < 500; n++) {
      const value = document(next, 0);
      expect([n, toXml(value, 'r', 'entry')]).toEqual([n, previousToXml(value, 'r', 'entry')]);
    }
  });

  it('writes the same bytes for top-level scalars, null, dates and empty lists', () => {
    for (const value of ['', 'x & y', 0, false, null, undefined, new Date(5), [], [null], {}, [[1, 2], []]]) {
      expect(toXml(value, 'r')).toBe(previousToXml(value, 'r'));
    }
  });

  it('throws for a key that is no XML name, as before', () => {
    for (const key of ['a b', '1a', '$x', 'a:b:c', 'x\u0001']) {
      expect(() => previousToXml({ [key]: 1 }, 'r')).toThrow('Invalid XML');
      expect(() => toXml({ [key]: 1 }, 'r')).toThrow('Invalid XML');
      expect(() => toXml({ ok: [{ [key]: 1 }] }, 'r')).toThrow('Invalid XML');
    }
    for (const key of ['<a/>', '{"a":1}', '[1]', '---']) expect(() => toXml({ [key]: 1 }, 'r')).toThrow('Invalid XML name');
  });

  it('accepts every plain ASCII name xmlbuilder2 accepts, and refuses what it refuses, on 3,000 random names', () => {
    const next = random(20261128);
    const CHARS = 'abcXYZ_09.-:$ é<';
    for (let n = 0; n < 3000; n++) {
      const name = Array.from({ length: 1 + Math.floor(next() * 6) }, () => CHARS[Math.floor(next() * CHARS.length)]).join('');
      const accepted = (render: () => string) => {
        try {
          render();
          return true;
        } catch {
          return false;
        }
      };
      expect([name, accepted(() => toXml({ [name]: 1 }, 'r'))]).toEqual([name, accepted(() => previousToXml({ [name]: 1 }, 'r'))]);
    }
  });

  it('loads xmlbuilder2 only for a name that is not plain ASCII', () => {
    let loaded = false;
    jest.isolateModules(() => {
      jest.doMock('xmlbuilder2', () => {
        loaded = true;
        return jest.requireActual('xmlbuilder2');
      });
      const isolated = jest.requireActual<typeof import('./xml')>('./xml');
      expect(isolated.toXml({ first_name: 'x', 'a-b.c_D9': [1, 2], _x: {} }, 'contact')).toBe(`${DECL}<contact><first_name>x</first_name><a-b.c_D9>1</a-b.c_D9><a-b.c_D9>2</a-b.c_D9><_x/></contact>`);
      expect(loaded).toBe(false);
      expect(isolated.toXml({ 'é': 1 }, 'r')).toBe(`${DECL}<r><é>1</é></r>`);
      expect(loaded).toBe(true);
    });
  });

  it('escapes every & in text, where xmlbuilder2 left entity-like text as it was', () => {
    const value = { v: 'AT&amp;T &#65; &nbsp; &lt;' };
    expect(previousToXml(value, 'r')).toBe(`${DECL}<r><v>AT&amp;T &#65; &nbsp; &lt;</v></r>`);
    const xml = toXml(value, 'r');
    expect(xml).toBe(`${DECL}<r><v>AT&amp;amp;T &amp;#65; &amp;nbsp; &amp;lt;</v></r>`);
    const decoded = xml.replace(/&(lt|gt|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', amp: '&' })[name] ?? '');
    expect(decoded).toBe(`${DECL}<r><v>${value.v}</v></r>`);
  });
});
