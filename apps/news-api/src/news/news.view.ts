import type { z } from '@lib/validation';
import type { articleOutput } from './news.schemas';
import { companyRef } from '../companies/companies';
import type { ArticleDoc } from './article.model';

/** The wire shape of an article; the only place that decides it. */
export function articleView(doc: ArticleDoc): z.input<typeof articleOutput> {
  return {
    id: doc._id,
    title: doc.title,
    summary: doc.summary,
    url: doc.url,
    publisher: { id: doc.source, name: doc.source_name },
    publishedAt: doc.published_at.toISOString(),
    companies: doc.companies.map(companyRef),
  };
}
