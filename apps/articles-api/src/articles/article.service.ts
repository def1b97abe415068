import { notFound } from '@lib/errors';
import { driverCollection, idSequence, insertWithSequenceId } from '@lib/mongo';
import { collectionSource, offsetPage, type OffsetPage, type PageSource, type SortKey } from '@lib/paging';
import type { Connection } from 'mongoose';
import { articleModel, type ArticleDoc } from './article.model';

export interface ArticleFields {
  title: string;
  content: string;
}

const missing = (id: number) => notFound(`Article ${id} not found`);
const OLDEST_FIRST: SortKey[] = [{ field: '_id', direction: 1 }];

export function articleService(connection: Connection) {
  const Article = articleModel(connection);
  const ids = idSequence(connection, 'articles');
  // The hottest read: straight to the driver (what lean() returns, without building mongoose Queries).
  const articles = collectionSource(driverCollection(Article)) as PageSource<ArticleDoc>;

  return {
    // The spec's envelope pages by offset; ids only grow, so the order is stable.
    list: (offset: number, limit: number): Promise<OffsetPage<ArticleDoc>> => offsetPage({ from: articles, filter: {}, order: OLDEST_FIRST, offset, limit }),

    async get(id: number): Promise<ArticleDoc> {
      const doc = await Article.findById(id).lean<ArticleDoc>();
      if (!doc) throw missing(id);
      return doc;
    },

    create: (fields: ArticleFields): Promise<ArticleDoc> => insertWithSequenceId(Article, ids, (id) => ({ _id: id, ...fields }) as ArticleDoc),

    async replace(id: number, fields: ArticleFields): Promise<ArticleDoc> {
      const doc = await Article.findOneAndUpdate({ _id: id }, { $set: fields }, { returnDocument: 'after' }).lean<ArticleDoc>();
      if (!doc) throw missing(id);
      return doc;
    },

    async remove(id: number): Promise<ArticleDoc> {
      // Read, then delete: deletedCount decides, so of two concurrent deletes exactly one wins.
      // (findOneAndDelete would do it in one trip, but the embedded test server rejects it.)
      const doc = await Article.findById(id).lean<ArticleDoc>();
      if (!doc) throw missing(id);
      const { deletedCount } = await Article.deleteOne({ _id: id });
      if (deletedCount === 0) throw missing(id);
      return doc;
    },
  };
}

export type ArticleService = ReturnType<typeof articleService>;
