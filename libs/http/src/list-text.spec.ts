import { listText } from './list-text';
import { toXml } from './xml';

const items = [
  { id: 1, name: 'A&B <x>', tags: ['a', 'b'], nested: { city: 'Perth' } },
  { id: 2, name: '€ “quoted” \u2028', tags: [], empty: {} },
  { id: 3, note: null, skipped: undefined, flag: false },
];

describe('listText: a list written item by item is what sending the whole list writes', () => {
  it('JSON', () => {
    const list = listText('json', { root: 'contacts', item: 'contact' });
    const texts = items.map((item) => list.item(item));
    expect(list.join(texts)).toBe(JSON.stringify(items));
    expect(list.join([])).toBe('[]');
    expect(list.frameBytes).toBe(2);
    expect(list.separatorBytes).toBe(1);
  });

  it('XML', () => {
    const list = listText('xml', { root: 'collection', item: 'opportunity' });
    const texts = items.map((item) => list.item(item));
    expect(list.join(texts)).toBe(toXml(items, 'collection', 'opportunity'));
    expect(list.join([])).toBe(toXml([], 'collection', 'opportunity'));
    expect(list.separatorBytes).toBe(0);
    // frame and items add up to the answer's bytes
    const total = texts.reduce((n, t) => n + Buffer.byteLength(t), list.frameBytes);
    expect(Buffer.byteLength(list.join(texts))).toBe(total);
  });

  it('refuses an XML name that is none, as toXml does', () => {
    expect(() => listText('xml', { root: 'a b', item: 'x' })).toThrow();
  });
});
