import { XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';
import { formArray } from './schemas';
import { parseXml, XML_LIMITS, xmlInput } from './xml-input';

const idField = z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)]);
const schema = z.strictObject({
  tags: z.array(z.string()).optional(),
  score: z.number().optional(),
  id: idField.optional(),
  flag: z.boolean().optional(),
  note: z.string().optional(),
  props: z.array(z.strictObject({ name: z.string(), value: z.string().optional() })).optional(),
  owner: z.strictObject({ id: z.number() }).optional(),
  ids: formArray(idField).optional(),
  anything: z.unknown().optional(),
});

const failure = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err as { status: number; code: string; message: string };
  }
  throw new Error('expected a failure');
};

describe('xmlInput', () => {
  it('reads the root as the object, repeated elements as a list, one element as a list of one where a list is wanted', () => {
    expect(xmlInput('<x><tags>a</tags><tags>b</tags><props><name>n</name></props></x>', schema)).toEqual({ tags: ['a', 'b'], props: [{ name: 'n' }] });
    expect(xmlInput('<x><tags>only</tags></x>', schema)).toEqual({ tags: ['only'] });
    expect(xmlInput('<x><ids>7</ids><ids>8</ids></x>', schema)).toEqual({ ids: [7, 8] });
  });

  it('makes numbers and booleans only where the schema takes them; text stays text elsewhere', () => {
    expect(xmlInput('<x><score>1.0E3</score><id>6</id><flag>true</flag><note>12</note><owner><id>3</id></owner></x>', schema)).toEqual({
      score: 1000,
      id: 6,
      flag: true,
      note: '12',
      owner: { id: 3 },
    });
    expect(xmlInput('<x><score>12abc</score><flag>yes</flag></x>', schema)).toEqual({ score: '12abc', flag: 'yes' });
  });

  it('keeps a repeated single-valued element as a list for the schema to refuse, and an unknown one as it is', () => {
    const value = xmlInput('<x><note>a</note><note>b</note><extra><y>1</y></extra></x>', schema);
    expect(value).toEqual({ note: ['a', 'b'], extra: { y: '1' } });
    expect(schema.safeParse(value).success).toBe(false);
  });

  it('ignores attributes, comments, processing instructions and whitespace between elements', () => {
    const doc = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<x a="1">\n  <!-- c -->\n  <note  b="2">hi</note>\n  <?pi x?>\n</x>\n';
    expect(xmlInput(doc, schema)).toEqual({ note: 'hi' });
    expect(xmlInput('<x/>', schema)).toEqual({});
  });

  it('a child named __proto__ never becomes the prototype', () => {
    const err = failure(() => xmlInput('<x><__proto__><polluted>1</polluted></__proto__></x>', schema));
    expect(err.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['a mismatched closing tag', '<x><a></x>', /closing tag/],
    ['two roots', '<x/><y/>', /exactly one root/],
    ['text alone', 'plain text', /not expected/],
    ['mixed content', '<x><note>a<b/>c</note></x>', /mixes text/],
    ['a DOCTYPE', '<!DOCTYPE x [<!ENTITY e "1">]><x>&e;</x>', /DOCTYPE/],
    ['a declaration after CDATA', '<x><![CDATA[fine]]><!ENTITY e "1"></x>', /DOCTYPE/],
    ['nesting deeper than the limit', `<x>${'<a>'.repeat(XML_LIMITS.maxDepth + 1)}${'</a>'.repeat(XML_LIMITS.maxDepth + 1)}</x>`, /nested/i],
    ['more elements than the limit', `<x>${'<a/>'.repeat(XML_LIMITS.maxElements + 1)}</x>`, /elements/],
  ])('%s is a 400 invalid_body naming the problem', (_label, doc, problem) => {
    const err = failure(() => xmlInput(doc, schema));
    expect(err).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(err.message).toMatch(/^Malformed XML body: /);
    expect(err.message).toMatch(problem);
  });

  it('reads a DOCTYPE-looking text inside CDATA or a comment as text; an unterminated comment is malformed', () => {
    expect(xmlInput('<x><note><![CDATA[<!DOCTYPE html>]]></note><!-- <!DOCTYPE --></x>', schema)).toEqual({ note: '<!DOCTYPE html>' });
    expect(failure(() => parseXml(`<x>${'<!--'.repeat(50_000)}</x>`)).status).toBe(400);
  });
});

describe('markup beyond what the element limit allows', () => {
  it('is refused before the document is validated or parsed (parsing builds every node first)', () => {
    const validate = jest.spyOn(XMLValidator, 'validate');
    try {
      const err = failure(() => parseXml(`<x>${'<a/>'.repeat(2 * XML_LIMITS.maxElements + 100)}</x>`));
      expect(err).toMatchObject({ status: 400, code: 'invalid_body', message: `Malformed XML body: more than ${XML_LIMITS.maxElements} elements` });
      expect(validate).not.toHaveBeenCalled();
      // a document at the element limit, written with open and close tags, is read
      const atLimit = `<x>${'<a>1</a>'.repeat(XML_LIMITS.maxElements - 1)}</x>`;
      expect(parseXml(atLimit).children).toHaveLength(XML_LIMITS.maxElements - 1);
      expect(validate).toHaveBeenCalledTimes(1);
    } finally {
      validate.mockRestore();
    }
  });
});
