import { tokensOf } from './text-tokens';

/**
 * The version of the search fields' recipe (tokenizer and caps). Articles stored under another
 * version (or none: stored before search existed) are re-indexed by the next sync (search-backfill.ts).
 */
export const SEARCH_VERSION = 1;

/** Characters of an item's folded content kept for search: its first words (about 450). */
export const CONTENT_SEARCH_MAX = 3_000;

/** The fields `searchIn` chooses between, as stored under `search`. */
export const SEARCH_FIELDS = ['title', 'summary', 'content'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/**
 * What an article stores to be searched: each field's words, folded and joined by single spaces
 * (phrases and `searchIn` are matched on these, and BM25 counts in them), and every distinct word
 * of the three (`terms`, the multikey index that finds the candidates).
 */
export interface ArticleSearch {
  v: number;
  terms: string[];
  title: string;
  summary: string;
  content: string;
}

/** The first words of `tokens` whose text, joined by spaces, fits in `max` characters. */
function upTo(tokens: string[], max: number): string[] {
  let length = -1;
  const kept: string[] = [];
  for (const token of tokens) {
    length += token.length + 1;
    if (length > max) break;
    kept.push(token);
  }
  return kept;
}

/**
 * The search fields of an article from its plain-text title, summary and content (the content is
 * not stored otherwise: only its first CONTENT_SEARCH_MAX characters of words, for search).
 */
export function searchFieldsOf(text: { title: string; summary: string; content?: string }): ArticleSearch {
  const title = tokensOf(text.title);
  const summary = tokensOf(text.summary);
  const content = upTo(tokensOf(text.content ?? ''), CONTENT_SEARCH_MAX);
  return {
    v: SEARCH_VERSION,
    terms: [...new Set([...title, ...summary, ...content])],
    title: title.join(' '),
    summary: summary.join(' '),
    content: content.join(' '),
  };
}
