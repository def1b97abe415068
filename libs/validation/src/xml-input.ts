import { HttpError } from '@lib/errors';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { z } from 'zod';

/** Content types read as XML request bodies. */
export const XML_MEDIA_TYPES = ['application/xml', 'text/xml'];

/** Bounds of an XML body besides its byte size (the body parser's limit). */
export const XML_LIMITS = { maxDepth: 32, maxElements: 50_000 } as const;

/** One element of a parsed document: its name, its child elements in order, and its text. */
export interface XmlElement {
  name: string;
  children: XmlElement[];
  text: string;
}

const malformed = (problem: string) => new HttpError(400, 'invalid_body', `Malformed XML body: ${problem}`);

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  trimValues: false,
  htmlEntities: true,
  maxNestedTags: XML_LIMITS.maxDepth,
  // No DOCTYPE gets this far (see declarationAt), so only the five predefined entities and character
  // references are ever expanded; the bounds are a second line.
  processEntities: { maxEntityCount: 1, maxEntitySize: 1, maxExpansionDepth: 1 },
});

/**
 * Where the document holds a markup declaration (`<!DOCTYPE`, `<!ENTITY`…): any `<!` that opens
 * neither a comment nor a CDATA section. Refusing them all rules out external entities (XXE) and
 * entity expansion (billion laughs). Linear: each search starts where the previous one ended.
 */
function declarationAt(xml: string): number {
  let at = xml.indexOf('<!');
  while (at !== -1) {
    const [open, close] = xml.startsWith('<!--', at) ? ['<!--', '-->'] : xml.startsWith('<![CDATA[', at) ? ['<![CDATA[', ']]>'] : [];
    if (!open || !close) return at;
    const end = xml.indexOf(close, at + open.length);
    if (end === -1) return -1; // unterminated: the validator names it
    at = xml.indexOf('<!', end + close.length);
  }
  return -1;
}

type OrderedNode = Record<string, unknown>;

function toElement(name: string, nodes: OrderedNode[], count: { elements: number }): XmlElement {
  if (++count.elements > XML_LIMITS.maxElements) throw malformed(`more than ${XML_LIMITS.maxElements} elements`);
  const element: XmlElement = { name, children: [], text: '' };
  for (const node of nodes) {
    if ('#text' in node) {
      element.text += String(node['#text']);
      continue;
    }
    const childName = Object.keys(node).find((key) => key !== ':@');
    if (childName) element.children.push(toElement(childName, node[childName] as OrderedNode[], count));
  }
  return element;
}

/** Markup starts (`<`) a document of XML_LIMITS.maxElements elements may hold: an open and a close tag each, and a few more. */
const MAX_MARKUP = 2 * XML_LIMITS.maxElements + 64;

/**
 * Whether the text holds more than MAX_MARKUP `<`: the parser builds every node before the element
 * count is checked, and a body of empty elements takes about 40 times its size to parse (39 MB for
 * 1 MB), so such a body is refused before it is parsed.
 */
function tooMuchMarkup(xml: string): boolean {
  let found = 0;
  for (let at = xml.indexOf('<'); at !== -1; at = xml.indexOf('<', at + 1)) if (++found > MAX_MARKUP) return true;
  return false;
}

/** Parses an XML document into its root element; a 400 naming the problem when it is not well formed. */
export function parseXml(xml: string): XmlElement {
  if (tooMuchMarkup(xml)) throw malformed(`more than ${XML_LIMITS.maxElements} elements`);
  const declaration = declarationAt(xml);
  if (declaration !== -1) {
    throw malformed(`declarations such as <!DOCTYPE> or <!ENTITY> are not accepted (found "${xml.slice(declaration, declaration + 12)}…")`);
  }
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw malformed(valid.err.col === undefined ? valid.err.msg : `${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(xml) as OrderedNode[];
  } catch (err) {
    throw malformed((err as Error).message);
  }
  const roots = nodes.filter((node) => !('#text' in node));
  if (roots.length !== 1) throw malformed('the document must hold exactly one root element');
  const [name] = Object.keys(roots[0]).filter((key) => key !== ':@');
  return toElement(name, roots[0][name] as OrderedNode[], { elements: 0 });
}

// ---- From elements to the value the JSON path would produce, guided by the schema -----------------

type Schema = z.core.$ZodType;
interface Def {
  type: string;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
  getter?: () => Schema;
  element?: Schema;
  options?: Schema[];
  shape?: Record<string, Schema>;
  catchall?: Schema;
  valueType?: Schema;
}

const defOf = (schema: Schema) => schema._zod.def as unknown as Def;
/** A JSON number literal (what `1000.0` or `1.0E12` from a Java client's double is). */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const OBJECT_TYPES = new Set(['object', 'record', 'unknown', 'any']);

/** The schema a value must meet, past wrappers that do not change its wire form. */
function unwrap(schema: Schema | undefined): Schema | undefined {
  for (let hops = 0; schema && hops < 50; hops++) {
    const def = defOf(schema);
    if (['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional'].includes(def.type)) schema = def.innerType;
    else if (def.type === 'lazy' && def.getter) schema = def.getter();
    // z.preprocess(fn, s) is a pipe from a transform: what arrives is what `s` wants
    else if (def.type === 'pipe' && def.in && def.out) schema = defOf(def.in).type === 'transform' ? def.out : def.in;
    else return schema;
  }
  return schema;
}

const typeOf = (schema: Schema | undefined) => (schema ? defOf(schema).type : 'unknown');

/** A leaf element's text as the schema wants it: numbers and booleans where it takes them, else the text. */
function leafValue(text: string, schema: Schema | undefined): unknown {
  const options = typeOf(schema) === 'union' ? (defOf(schema!).options ?? []).map(unwrap) : [schema];
  const types = new Set(options.map(typeOf));
  const trimmed = text.trim();
  if (types.has('number') && NUMBER.test(trimmed)) return Number(trimmed);
  if (types.has('boolean') && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
  if (trimmed === '' && [...types].some((type) => type === 'object' || type === 'record') && !types.has('string')) return {};
  return text;
}

function fieldSchema(schema: Schema | undefined, name: string): Schema | undefined {
  if (!schema) return undefined;
  const def = defOf(schema);
  if (def.type === 'object') return def.shape?.[name] ?? def.catchall;
  if (def.type === 'record') return def.valueType;
  return undefined;
}

function objectValue(element: XmlElement, schema: Schema | undefined): Record<string, unknown> {
  if (element.text.trim() !== '') throw malformed(`<${element.name}> mixes text with child elements`);
  if (typeOf(schema) === 'union') schema = (defOf(schema!).options ?? []).map(unwrap).find((option) => OBJECT_TYPES.has(typeOf(option)));
  const groups = new Map<string, XmlElement[]>();
  for (const child of element.children) groups.set(child.name, [...(groups.get(child.name) ?? []), child]);
  const result: Record<string, unknown> = {};
  for (const [name, elements] of groups) {
    // defineProperty: a child named __proto__ becomes a field (refused later), never the prototype
    Object.defineProperty(result, name, { value: fieldValue(elements, fieldSchema(schema, name)), enumerable: true, writable: true, configurable: true });
  }
  return result;
}

function elementValue(element: XmlElement, schema: Schema | undefined): unknown {
  const wanted = unwrap(schema);
  return element.children.length > 0 ? objectValue(element, wanted) : leafValue(element.text, wanted);
}

/**
 * The elements of one name under a parent: a list where the schema wants a list (one element is a
 * list of one), else the one value. Repeated where one is wanted, they stay a list for the schema to
 * refuse, naming the field.
 */
function fieldValue(elements: XmlElement[], schema: Schema | undefined): unknown {
  const wanted = unwrap(schema);
  if (typeOf(wanted) === 'array') return elements.map((element) => elementValue(element, defOf(wanted!).element));
  if (elements.length === 1) return elementValue(elements[0], wanted);
  return elements.map((element) => elementValue(element, wanted));
}

/**
 * An XML request body as the object the same request in JSON would carry, for `schema` to validate:
 * the root element is the object (its name is not checked), child elements are its fields, repeated
 * elements a list, text a string, or a number or boolean where the schema takes one. Attributes are
 * ignored.
 */
export function xmlInput(xml: string, schema: z.ZodType): unknown {
  const root = parseXml(xml);
  const wanted = unwrap(schema);
  return root.children.length > 0 ? objectValue(root, wanted) : leafValue(root.text, wanted);
}
