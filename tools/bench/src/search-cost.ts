import { BSON, MongoClient, type Db } from 'mongodb';
import { NEWS_SEARCH_DB } from './endpoints';

/** Bytes a KeyString index entry adds beyond its text: type bytes, the date, the id and the record id (WiredTiger, before prefix compression). */
const KEY_OVERHEAD = 20;

export interface SearchCost {
  articles: number;
  /** Distinct words per article: the keys it adds to the `search.terms` multikey index. */
  termsPerArticle: number;
  /** BSON bytes of the fields kept for search and the filters (`search`, `domains`, `language`). */
  storedBytes: number;
  /** Estimated bytes of the index keys those fields add (the terms, domains, language and search.v indexes). */
  indexBytes: number;
}

/** What the indexed articles of the `news` database store for search, on average per article. */
export async function searchCost(db: Db): Promise<SearchCost> {
  const docs = db.collection('articles').find({ 'search.terms': { $exists: true } }, { projection: { search: 1, domains: 1, language: 1 } });
  let articles = 0;
  let terms = 0;
  let stored = 0;
  let index = 0;
  for await (const doc of docs) {
    const words: string[] = doc.search?.terms ?? [];
    const domains: string[] = doc.domains ?? [];
    articles++;
    terms += words.length;
    stored += BSON.calculateObjectSize({ search: doc.search, domains: doc.domains, language: doc.language }) - 5;
    const keys = [...words, ...domains, String(doc.language ?? '')];
    index += keys.reduce((sum, key) => sum + Buffer.byteLength(key) + KEY_OVERHEAD, 0) + 8 + KEY_OVERHEAD;
  }
  const per = (total: number) => (articles ? total / articles : 0);
  return { articles, termsPerArticle: per(terms), storedBytes: per(stored), indexBytes: per(index) };
}

export function searchCostTable(cost: SearchCost): string {
  return [
    '| indexed articles | distinct words per article (terms index keys) | stored search fields, bytes per article | index keys, bytes per article (estimate) |',
    '|---:|---:|---:|---:|',
    `| ${cost.articles} | ${cost.termsPerArticle.toFixed(1)} | ${cost.storedBytes.toFixed(0)} | ${cost.indexBytes.toFixed(0)} |`,
  ].join('\n');
}

/** searchCost of the search process's database on the server at `mongoUrl`. */
export async function searchCostOf(mongoUrl: string): Promise<SearchCost> {
  const client = await new MongoClient(mongoUrl).connect();
  try {
    return await searchCost(client.db(NEWS_SEARCH_DB));
  } finally {
    await client.close();
  }
}
