/**
 * A synthetic corpus of news articles for the search rows: deterministic (a seeded generator), with
 * a long tail of filler words (Zipf-like) and topic words at fixed rates, so that a query matches
 * a known share of it. Words are lower-case ASCII joined by single spaces: already folded.
 */

/** mulberry32: a small, fast, seedable generator (the same corpus on every run). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ro', 'ta', 've', 'su', 'da', 'pi', 'gar', 'ton', 'ber', 'lin', 'mar', 'sol', 'den', 'rix'];
/** Topic words (or phrases) and the share of articles that mention each (in the title or the summary). */
export const TOPICS: ReadonlyArray<readonly [string, number]> = [
  ['lithium', 0.12],
  ['iron ore', 0.08],
  ['gold', 0.1],
  ['copper', 0.06],
  ['nickel', 0.04],
  ['price', 0.15],
  ['rio tinto', 0.05],
  ['interest rates', 0.08],
  ['bank', 0.08],
  ['profit', 0.1],
];

export interface CorpusArticle {
  title: string;
  summary: string;
  /** The words of each field, folded (what news-api's search fields hold). */
  words: { title: string[]; summary: string[]; content: string[] };
}

/** `count` articles, the same for the same seed. */
export function newsCorpus(count: number, seed = 26): CorpusArticle[] {
  const random = generator(seed);
  const vocabulary = Array.from({ length: 4000 }, (_, i) => {
    let word = '';
    for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
    return word;
  });
  // a Zipf-like pick: word i about 1/(i+1) as often as the first
  const filler = () => vocabulary[Math.floor(Math.exp(random() * Math.log(vocabulary.length))) - 1];
  const words = (n: number) => Array.from({ length: n }, filler);
  const insert = (into: string[], phrase: string) => into.splice(Math.floor(random() * (into.length + 1)), 0, phrase);
  return Array.from({ length: count }, () => {
    const title = words(6 + Math.floor(random() * 6));
    const summary = words(20 + Math.floor(random() * 20));
    for (const [topic, share] of TOPICS) if (random() < share) insert(random() < 0.5 ? title : summary, topic);
    const content = words(120 + Math.floor(random() * 120));
    for (const [topic, share] of TOPICS) if (random() < share / 2) insert(content, topic);
    const split = (text: string[]) => text.flatMap((phrase) => phrase.split(' '));
    const capitalised = title.join(' ');
    return { title: capitalised.charAt(0).toUpperCase() + capitalised.slice(1), summary: `${summary.join(' ')}.`, words: { title: split(title), summary: split(summary), content: split(content) } };
  });
}
