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
