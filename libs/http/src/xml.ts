import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

/** Characters XML 1.0 cannot carry (control characters, lone surrogates, U+FFFE/U+FFFF). */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const xmlText = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value)).replace(NOT_XML_CHAR, '\uFFFD');

function append(parent: XMLBuilder, name: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) append(parent, name, item);
    return;
  }
  const element = parent.ele(name);
  if (typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, child] of Object.entries(value)) append(element, key, child);
  } else {
    element.txt(xmlText(value));
  }
}

/**
 * Renders a response body as XML: object keys become elements, an array becomes repeated elements
 * named after its key, and a top-level array becomes `<root><item/>…</root>`.
 */
export function toXml(value: unknown, root: string, item = 'item'): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const rootElement = doc.ele(root);
  if (Array.isArray(value)) {
    for (const entry of value) append(rootElement, item, entry);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) append(rootElement, key, child);
  } else if (value !== undefined && value !== null) {
    rootElement.txt(xmlText(value));
  }
  return doc.end({ prettyPrint: false });
}
