import type { z } from '@lib/validation';
import type { articleOutput, singleEnvelope } from './article.schemas';
import type { ArticleDoc } from './article.model';

/** `YYYY-MM-DD HH:MM:SS` in UTC. */
export const formatTimestamp = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/** The wire shape of an article; the only place that decides it. */
export function articleView(doc: ArticleDoc): z.input<typeof articleOutput> {
  return {
    id: doc._id,
    title: doc.title,
    content: doc.content,
    created_at: formatTimestamp(doc.created_at),
    updated_at: formatTimestamp(doc.updated_at),
  };
}

export type ArticleView = ReturnType<typeof articleView>;

/** The spec's envelope of one article. */
export const singleView = (doc: ArticleDoc): z.input<typeof singleEnvelope> => ({ status: true, data: articleView(doc) });

