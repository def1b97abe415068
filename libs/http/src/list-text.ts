import type { MediaKind } from './negotiate';
import { XML_DECLARATION, xmlElementText } from './xml';

/**
 * A list answer written one item at a time, so that each item is measured as it will be sent
 * before it is taken (a page that ends at its byte budget). `join` of the items' texts is, byte
 * for byte, what `send` writes for the list of the same values.
 */
export interface ListText {
  readonly kind: MediaKind;
  /** The text of one item as the list carries it. */
  item(value: object): string;
  /** Bytes between two items' texts. */
  readonly separatorBytes: number;
  /** Bytes of the list around its items' texts. */
  readonly frameBytes: number;
  /** The whole list of these items' texts. */
  join(items: readonly string[]): string;
}

const jsonList: ListText = {
  kind: 'json',
  item: (value) => JSON.stringify(value),
  separatorBytes: 1,
  frameBytes: 2,
  join: (items) => `[${items.join(',')}]`,
};

/** JSON (`[a,b]`), or XML (`<root><item>…</item>…</root>`, as `toXml(list, root, item)`). */
export function listText(kind: MediaKind, xml: { root: string; item?: string }): ListText {
  if (kind === 'json') return jsonList;
  const item = xml.item ?? 'item';
  const open = `${XML_DECLARATION}<${xml.root}>`;
  const close = `</${xml.root}>`;
  // checks the names once (an invalid one throws, as toXml would)
  xmlElementText(xml.root, {});
  xmlElementText(item, {});
  return {
    kind,
    item: (value) => xmlElementText(item, value),
    separatorBytes: 0,
    frameBytes: Buffer.byteLength(open + close),
    join: (items) => (items.length === 0 ? `${XML_DECLARATION}<${xml.root}/>` : `${open}${items.join('')}${close}`),
  };
}
