import { parseSingleQuotedJson } from './single-quoted-json';

describe('parseSingleQuotedJson', () => {
  it("reads the Java client's dynamic filter", () => {
    expect(parseSingleQuotedJson("{'rules':[{'LHS':'tags','CONDITION':'EQUALS','RHS':'Lead'}],'contact_type':'PERSON'}")).toEqual({
      rules: [{ LHS: 'tags', CONDITION: 'EQUALS', RHS: 'Lead' }],
      contact_type: 'PERSON',
    });
  });

  it('reads plain JSON and mixed quoting the same way', () => {
    expect(parseSingleQuotedJson('{"a":[1,true,null,"x"]}')).toEqual({ a: [1, true, null, 'x'] });
    expect(parseSingleQuotedJson(`{"a":'b', 'c':"d"}`)).toEqual({ a: 'b', c: 'd' });
  });

  it('keeps the text of a single-quoted string: double quotes, escaped quotes, JSON escapes', () => {
    expect(parseSingleQuotedJson(`['say "hi"']`)).toEqual(['say "hi"']);
    expect(parseSingleQuotedJson(`['O\\'Neil']`)).toEqual(["O'Neil"]);
    expect(parseSingleQuotedJson(`['a\\"b']`)).toEqual(['a"b']);
    expect(parseSingleQuotedJson(`['tab\\there', 'back\\\\']`)).toEqual(['tab\there', 'back\\']);
    expect(parseSingleQuotedJson(`["it's", 'x']`)).toEqual(["it's", 'x']);
  });

  it.each([
    "{'a':'b'",
    "{'a':'b}",
    "{a:'b'}",
    "{'a':'b',}",
    "{'a':'b'} // note",
    "['\\x41']",
    "['line\nbreak']",
    "'a' 'b'",
    "{'a':NaN}",
    '',
  ])('refuses what is not JSON read that way: %j', (text) => {
    expect(parseSingleQuotedJson(text)).toBeUndefined();
  });
});
