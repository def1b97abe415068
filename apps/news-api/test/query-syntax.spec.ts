import { MAX_QUERY_DEPTH, MAX_QUERY_LENGTH, MAX_QUERY_WORDS, parseSearchQuery, QuerySyntaxError, type QueryNode } from '../src/news/search/query-syntax';
import { queryFilter, rankingWords } from '../src/news/search/query-filter';
import { tokensOf } from '../src/news/search/text-tokens';

/** The parsed query written back compactly: words as they are, "a b" for a phrase, (x AND y), (x OR y), NOT x. */
function show(node: QueryNode): string {
  switch (node.type) {
    case 'words':
      return node.words.length === 1 ? node.words[0] : `"${node.words.join(' ')}"`;
    case 'and':
      return `(${node.of.map(show).join(' AND ')})`;
    case 'or':
      return `(${node.of.map(show).join(' OR ')})`;
    case 'not':
      return `NOT ${show(node.of)}`;
  }
}

const parsed = (query: string) => show(parseSearchQuery(query));

function syntaxError(query: string): { position: number; message: string } {
  try {
    parseSearchQuery(query);
  } catch (err) {
    if (err instanceof QuerySyntaxError) return { position: err.position, message: err.message };
    throw err;
  }
  throw new Error(`${query} parsed`);
}

describe('words: folding and tokens', () => {
  it.each([
    ['Iron ORE', ['iron', 'ore']],
    ['Café Société', ['cafe', 'societe']],
    ['ＢＨＰ ﬁnance ²', ['bhp', 'finance', '2']],
    ['Rio Tinto’s O\'Brien', ['rio', 'tinto', 'obrien']],
    ['Tintoʼs O’Brien\'s', ['tinto', 'obrien']],
    ['lithium-ion A$2.5bn', ['lithium', 'ion', 'a', '2', '5bn']],
    ['İstanbul ÅSX ΆΘΗΝΑ', ['istanbul', 'asx', 'αθηνα']],
    ['.* & --', []],
  ])('%s → %j', (text, tokens) => {
    expect(tokensOf(text)).toEqual(tokens);
  });

  it('cuts a word at 64 characters, never inside a surrogate pair', () => {
    expect(tokensOf('a'.repeat(100))).toEqual(['a'.repeat(64)]);
    expect(tokensOf(`${'a'.repeat(63)}\u{20000}b`)).toEqual(['a'.repeat(63)]);
    expect(tokensOf('𝐀𝐁')).toEqual(['ab']);
  });
});

describe('the query language', () => {
  it.each([
    // words: a space is AND; case and accents fold
    ['iron ore', '(iron AND ore)'],
    ['Iron  ÓRE', '(iron AND ore)'],
    // phrases, and words that fold to several
    ['"iron ore"', '"iron ore"'],
    ['"Iron Ore" price', '("iron ore" AND price)'],
    ['lithium-ion', '"lithium ion"'],
    ['"bhp"', 'bhp'],
    // + and -
    ['+lithium -copper', '(lithium AND NOT copper)'],
    ['-"rio tinto" bhp', '(NOT "rio tinto" AND bhp)'],
    ['-(a OR b)', 'NOT (a OR b)'],
    ['c++ x-y', '(c AND "x y")'],
    // operators in capitals only; lower case is a word
    ['iron and ore', '(iron AND and AND ore)'],
    ['a OR b', '(a OR b)'],
    ['a AND b', '(a AND b)'],
    ['NOT a', 'NOT a'],
    ['NOT NOT a', 'a'],
    ['a NOT b', '(a AND NOT b)'],
    // precedence: NOT > AND > OR
    ['a OR b AND c', '(a OR (b AND c))'],
    ['a AND b OR c', '((a AND b) OR c)'],
    ['a b OR c d', '((a AND b) OR (c AND d))'],
    ['NOT a OR b', '(NOT a OR b)'],
    ['NOT a b', '(NOT a AND b)'],
    ['-a OR b', '(NOT a OR b)'],
    // parentheses
    ['(a OR b) c', '((a OR b) AND c)'],
    ['crypto AND (ethereum OR litecoin) NOT bitcoin', '(crypto AND (ethereum OR litecoin) AND NOT bitcoin)'],
    ['((a))', 'a'],
    ['(a OR (b OR c))', '(a OR b OR c)'],
    ['NOT (a NOT b)', 'NOT (a AND NOT b)'],
    // escapes: the next character is plain
    ['\\AND', 'and'],
    ['a \\OR b', '(a AND or AND b)'],
    ['\\-copper', 'copper'],
    ['\\(a\\)', 'a'],
    ['"say \\"hi\\" \\\\ there"', '"say hi there"'],
    // punctuation alone holds no word and is left out
    ['iron & ore', '(iron AND ore)'],
    ['iron OR .*', 'iron'],
    ['a "" b', '(a AND b)'],
  ])('%s → %s', (query, expected) => {
    expect(parsed(query)).toBe(expected);
  });

  it.each([
    ['(iron ore', 1, 'this "(" is not closed'],
    ['iron) ore', 5, '")" closes no "("'],
    ['iron "ore', 6, 'this quote is not closed'],
    ['AND iron', 1, 'AND needs a word, a "phrase" or "(" before it'],
    ['iron AND', 6, 'AND needs a word, a "phrase" or "(" after it, not the end of the query'],
    ['iron OR OR ore', 6, 'OR needs a word, a "phrase" or "(" after it, not "OR"'],
    ['iron OR )', 6, 'OR needs a word, a "phrase" or "(" after it, not ")"'],
    ['NOT', 1, 'NOT needs a word, a "phrase" or "(" after it, not the end of the query'],
    ['iron - ore', 6, '"-" must be followed directly by a word, a "phrase" or "("'],
    ['iron +', 6, '"+" must be followed directly'],
    ['+-iron', 2, 'expected a word, a "phrase" or "(", found "-"'],
    ['iron ()', 6, '"()" holds nothing'],
    ['iron\\', 5, 'a "\\" at the end escapes nothing'],
    ['"iron\\', 6, 'a "\\" at the end escapes nothing'],
    ['.* &', 1, 'the query has no word to search for'],
    ['(&)', 1, 'the query has no word to search for'],
    // positions count characters, not UTF-16 units
    ['𝐀𝐁 (x', 4, 'this "(" is not closed'],
  ])('%s → 400 at character %i: %s', (query, position, message) => {
    const error = syntaxError(query);
    expect(error.position).toBe(position);
    expect(error.message).toContain(`at character ${position}: ${message}`);
  });

  it(`takes up to ${MAX_QUERY_LENGTH} characters, ${MAX_QUERY_WORDS} words and ${MAX_QUERY_DEPTH} levels of parentheses`, () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    expect(parsed(words(MAX_QUERY_WORDS))).toContain(`w${MAX_QUERY_WORDS - 1}`);
    expect(syntaxError(words(MAX_QUERY_WORDS + 1))).toEqual({ position: words(MAX_QUERY_WORDS).length + 2, message: expect.stringContaining(`more than ${MAX_QUERY_WORDS} words`) });
    // a phrase counts each of its words
    expect(syntaxError(`"${words(MAX_QUERY_WORDS)}" x`).message).toContain(`more than ${MAX_QUERY_WORDS} words`);
    // punctuation is no word: a long query of it and a few words is fine
    expect(parsed(`${'& '.repeat(200)}iron`)).toBe('iron');

    expect(parsed('x'.repeat(MAX_QUERY_LENGTH - 1) + ' ')).toBe('x'.repeat(64));
    expect(syntaxError(`${'é'.repeat(MAX_QUERY_LENGTH)}x`)).toEqual({ position: MAX_QUERY_LENGTH + 1, message: expect.stringContaining(`longer than ${MAX_QUERY_LENGTH} characters`) });

    const nested = (n: number) => `${'('.repeat(n)}a${')'.repeat(n)}`;
    expect(parsed(nested(MAX_QUERY_DEPTH))).toBe('a');
    expect(syntaxError(nested(MAX_QUERY_DEPTH + 1))).toEqual({ position: MAX_QUERY_DEPTH + 1, message: expect.stringContaining(`parentheses nest deeper than ${MAX_QUERY_DEPTH}`) });
    // NOT chains of any length stay within the length bound and fold away
    expect(parsed(`${'NOT '.repeat(100)}a`)).toBe('a');
  });
});

describe('the filter of a query', () => {
  const all = ['title', 'summary', 'content'] as const;

  it('finds a word by the terms index; a phrase by its words, then its pattern in a searched field', () => {
    expect(queryFilter(parseSearchQuery('Iron'), all)).toEqual({ 'search.terms': 'iron' });
    expect(queryFilter(parseSearchQuery('"iron ore"'), ['title'])).toEqual({ 'search.terms': { $all: ['iron', 'ore'] }, 'search.title': { $regex: '(?:^| )iron ore(?: |$)' } });
    expect(queryFilter(parseSearchQuery('iron'), ['title', 'content'])).toEqual({
      'search.terms': 'iron',
      $or: [{ 'search.title': { $regex: '(?:^| )iron(?: |$)' } }, { 'search.content': { $regex: '(?:^| )iron(?: |$)' } }],
    });
    expect(queryFilter(parseSearchQuery('a OR (b -c)'), all)).toEqual({
      $or: [{ 'search.terms': 'a' }, { $and: [{ 'search.terms': 'b' }, { $nor: [{ 'search.terms': 'c' }] }] }],
    });
  });

  it('ranks by the words not under a NOT (twice negated counts as not negated)', () => {
    expect(rankingWords(parseSearchQuery('"iron ore" OR iron -copper NOT (gold NOT silver)'))).toEqual(['iron', 'ore', 'silver']);
  });
});
