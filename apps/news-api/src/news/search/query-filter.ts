import { escapeRegex } from '@lib/mongo';
import type { QueryNode } from './query-syntax';
import { SEARCH_FIELDS, type SearchField } from './search-fields';

type Filter = Record<string, unknown>;

/** The words in this order, each whole, in a field's folded text (words joined by single spaces). */
const wordsPattern = (words: string[]) => `(?:^| )${words.map(escapeRegex).join(' ')}(?: |$)`;

/**
 * One word or phrase: the multikey index on `search.terms` finds the articles holding every word
 * (anywhere), and a pattern on the folded text of the searched fields keeps those where the words
 * stand together (a phrase) or stand in a searched field (`searchIn` narrower than all three).
 */
function wordsFilter(words: string[], fields: readonly SearchField[]): Filter {
  const terms = words.length === 1 ? { 'search.terms': words[0] } : { 'search.terms': { $all: words } };
  if (words.length === 1 && fields.length === SEARCH_FIELDS.length) return terms;
  const pattern = wordsPattern(words);
  const within = fields.map((field) => ({ [`search.${field}`]: { $regex: pattern } }));
  return { ...terms, ...(within.length === 1 ? within[0] : { $or: within }) };
}

/** The MongoDB filter of a parsed query over the fields `searchIn` chose (every word already folded). */
export function queryFilter(node: QueryNode, fields: readonly SearchField[]): Filter {
  switch (node.type) {
    case 'words':
      return wordsFilter(node.words, fields);
    case 'and':
      return { $and: node.of.map((part) => queryFilter(part, fields)) };
    case 'or':
      return { $or: node.of.map((part) => queryFilter(part, fields)) };
    case 'not':
      return { $nor: [queryFilter(node.of, fields)] };
  }
}

/** The distinct words that rank an article (BM25): every word of the query not under a NOT. */
export function rankingWords(node: QueryNode): string[] {
  const words = new Set<string>();
  const visit = (part: QueryNode, negated: boolean) => {
    if (part.type === 'words') {
      if (!negated) for (const word of part.words) words.add(word);
    } else if (part.type === 'not') visit(part.of, !negated);
    else for (const child of part.of) visit(child, negated);
  };
  visit(node, false);
  return [...words];
}
