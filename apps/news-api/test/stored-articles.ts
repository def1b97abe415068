import type { ArticleDoc } from '../src/news/article.model';
import { derivedFields } from '../src/news/derived-fields';

type Written = Omit<ArticleDoc, 'domains' | 'language' | 'search'> & { content?: string; language?: string };

/** An article as a sync stores it: with its search, domain and language fields (language `en` unless given). */
export function indexed({ content, language = 'en', ...article }: Written): ArticleDoc {
  return { ...article, ...derivedFields({ url: article.url, title: article.title, summary: article.summary, content, language }) };
}
