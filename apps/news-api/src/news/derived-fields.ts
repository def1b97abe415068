import type { ArticleDoc } from './article.model';
import { domainsOf } from './domains';
import { searchFieldsOf } from './search/search-fields';

/** What a feed entry gives to store an article from. */
export interface ArticleText {
  url: string;
  title: string;
  summary: string;
  /** The item's full content as plain text, when the feed carries it (only its search fields are stored). */
  content?: string;
  language: string;
}

/** What an article stores besides what the feed said, for search and for the `domains` and `language` filters. */
export function derivedFields(text: ArticleText): Required<Pick<ArticleDoc, 'domains' | 'language' | 'search'>> {
  return { domains: domainsOf(text.url), language: text.language, search: searchFieldsOf(text) };
}
