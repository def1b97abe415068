import { publisherDomain, publisherLanguage, type Publisher } from './feeds-config';
import type { SourceDoc } from './source.model';
import type { sourceOutput } from './source.schemas';
import type { z } from '@lib/validation';

const iso = (date?: Date) => date?.toISOString() ?? null;

/** The wire shape of a publisher and how its last fetches went; the only place that decides it. */
export function sourceView({ publisher, doc }: { publisher: Publisher; doc?: SourceDoc }): z.input<typeof sourceOutput> {
  const failing = doc?.last_error_at && (!doc.last_success_at || doc.last_error_at > doc.last_success_at);
  const lastSync = [doc?.last_success_at, doc?.last_error_at].reduce((later, date) => (date && (!later || date > later) ? date : later), undefined);
  return {
    id: publisher.id,
    name: publisher.name,
    feeds: publisher.feeds,
    domain: publisherDomain(publisher),
    language: publisherLanguage(publisher),
    status: !doc ? 'never_synced' : failing ? 'failing' : 'ok',
    lastSyncAt: iso(lastSync),
    lastSuccessAt: iso(doc?.last_success_at),
    lastErrorAt: iso(doc?.last_error_at),
    lastError: doc?.last_error ?? null,
    articleCount: doc?.article_count ?? 0,
  };
}
