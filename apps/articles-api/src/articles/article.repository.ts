import { driverCollection, idSequence, insertWithSequenceId } from '@lib/mongo';
import { collectionSource, openOffsetPage, type CountedPageReader, type PageSource, type SortKey } from '@lib/paging';
import type { Connection } from 'mongoose';
import { articleModel, type ArticleDoc } from './article.model';

const OLDEST_FIRST: SortKey[] = [{ field: '_id', direction: 1 }];

/** The articles: the only module that knows their model and collection. */
export function articleRepository(connection: Connection) {
  const Article = articleModel(connection);
  const ids = idSequence(connection, 'articles');
  // The hottest read: straight to the driver (what lean() returns, without building mongoose Queries).
  const articles = collectionSource(driverCollection(Article)) as PageSource<ArticleDoc>;

  return {
    // The spec's envelope pages by offset; ids only grow, so the order is stable. Read in batches
    // (article-page.ts fills the page within its byte budget), the total alongside.
    open: (offset: number, limit: number): CountedPageReader<ArticleDoc> => openOffsetPage({ from: articles, filter: {}, order: OLDEST_FIRST, offset, limit }),
    get: (id: number) => Article.findById(id).lean<ArticleDoc>(),
    insert: (fields: Pick<ArticleDoc, 'title' | 'content'>): Promise<ArticleDoc> => insertWithSequenceId(Article, ids, (id) => ({ _id: id, ...fields }) as ArticleDoc),
    replace: (id: number, fields: Pick<ArticleDoc, 'title' | 'content'>) => Article.findOneAndUpdate({ _id: id }, { $set: fields }, { returnDocument: 'after' }).lean<ArticleDoc>(),
    /** Whether this call deleted it (of two concurrent deletes exactly one does). */
    remove: async (id: number) => (await Article.deleteOne({ _id: id })).deletedCount === 1,
  };
}

export type ArticleRepository = ReturnType<typeof articleRepository>;
