import { notFound } from '@lib/errors';
import type { CountedPageReader } from '@lib/paging';
import type { ArticleDoc } from './article.model';
import type { ArticleRepository } from './article.repository';

export interface ArticleFields {
  title: string;
  content: string;
}

const missing = (id: number) => notFound(`Article ${id} not found`);

export function articleService(articles: ArticleRepository) {
  async function get(id: number): Promise<ArticleDoc> {
    const doc = await articles.get(id);
    if (!doc) throw missing(id);
    return doc;
  }

  return {
    /** The page at `offset` of at most `limit` articles, oldest first, to be read in batches (listReply), with the total. */
    list: (offset: number, limit: number): CountedPageReader<ArticleDoc> => articles.open(offset, limit),

    get,

    create: (fields: ArticleFields): Promise<ArticleDoc> => articles.insert(fields),

    async replace(id: number, fields: ArticleFields): Promise<ArticleDoc> {
      const doc = await articles.replace(id, fields);
      if (!doc) throw missing(id);
      return doc;
    },

    async remove(id: number): Promise<ArticleDoc> {
      // Read, then delete: deletedCount decides, so of two concurrent deletes exactly one wins.
      // (findOneAndDelete would do it in one trip, but the embedded test server rejects it.)
      const doc = await get(id);
      if (!(await articles.remove(id))) throw missing(id);
      return doc;
    },
  };
}

export type ArticleService = ReturnType<typeof articleService>;
