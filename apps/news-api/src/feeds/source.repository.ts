import type { Connection } from 'mongoose';
import type { Publisher } from './feeds-config';
import { sourceModel, type SourceDoc } from './source.model';

/** What the syncs recorded of each publisher: the only module that knows the `sources` collection. */
export function sourceRepository(connection: Connection) {
  const Source = sourceModel(connection);
  const record = (publisher: Publisher, fields: Partial<Omit<SourceDoc, '_id' | 'name'>>) =>
    Source.updateOne({ _id: publisher.id }, { $set: { name: publisher.name, ...fields } }, { upsert: true });

  return {
    all: () => Source.find().lean<SourceDoc[]>(),
    recordSuccess: (publisher: Publisher) => record(publisher, { last_success_at: new Date() }),
    recordError: (publisher: Publisher, error: string) => record(publisher, { last_error_at: new Date(), last_error: error }),
    recordArticleCount: (publisher: Publisher, count: number) => record(publisher, { article_count: count }),
  };
}

export type SourceRepository = ReturnType<typeof sourceRepository>;
