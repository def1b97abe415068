import type { SearchField } from './search-fields';

/**
 * BM25F over the searched fields: a word's frequency in each field, weighted by field and
 * normalised by the field's length against a typical length, is summed, saturated (k1) and
 * multiplied by the word's inverse document frequency. The typical lengths are fixed (measured on
 * Australian business feeds) rather than averaged over the corpus, so an article's score depends
 * only on its own text and the words' document frequencies, which a cursor pins.
 */
export const BM25 = { k1: 1.2, b: 0.75 } as const;
export const FIELD_WEIGHT: Record<SearchField, number> = { title: 3, summary: 1.5, content: 1 };
/** Words in a typical title, summary and (cut) content of the shipped feeds. */
export const TYPICAL_LENGTH: Record<SearchField, number> = { title: 11, summary: 32, content: 250 };

/** What the inverse document frequencies are computed from: the articles stored and, per ranking word, how many hold it. */
export interface CorpusStats {
  articles: number;
  /** One per ranking word, in the same order. */
  holding: number[];
}

/** Scores are rounded to this step, so that a score written into a cursor compares exactly. */
const STEP = 1e6;

export const inverseDocumentFrequency = (articles: number, holding: number) => {
  const n = Math.max(articles, holding);
  return Math.log(1 + (n - holding + 0.5) / (holding + 0.5));
};

/** A function scoring an article's search fields (folded words joined by spaces) for the ranking words. */
export function bm25Scorer(words: string[], stats: CorpusStats, fields: readonly SearchField[]) {
  const idf = words.map((_, i) => inverseDocumentFrequency(stats.articles, stats.holding[i] ?? 0));
  const position = new Map(words.map((word, i) => [word, i]));
  const { k1, b } = BM25;
  return (search: Partial<Record<SearchField, string>> | undefined): number => {
    const weighted = new Float64Array(words.length);
    for (const field of fields) {
      const text = search?.[field];
      if (!text) continue;
      const tokens = text.split(' ');
      const norm = FIELD_WEIGHT[field] / (1 - b + (b * tokens.length) / TYPICAL_LENGTH[field]);
      for (const token of tokens) {
        const i = position.get(token);
        if (i !== undefined) weighted[i] += norm;
      }
    }
    let score = 0;
    for (let i = 0; i < words.length; i++) if (weighted[i] > 0) score += (idf[i] * weighted[i] * (k1 + 1)) / (weighted[i] + k1);
    return Math.round(score * STEP) / STEP;
  };
}
