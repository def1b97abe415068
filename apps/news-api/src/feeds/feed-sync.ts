import { idSequence, insertWithSequenceId } from '@lib/mongo';
import type { Logger } from '@lib/http';
import type { Connection } from 'mongoose';
import { articleModel, type ArticleDoc } from '../news/article.model';
import type { Publisher } from './feeds-config';
import { DEFAULT_FETCH_LIMITS, FeedError, fetchFeed, type FetchLimits } from './fetch-feed';
import { readFeed, type FeedEntry } from './read-feed';
import { sourceModel } from './source.model';

export interface SourceReport {
  id: string;
  name: string;
  /** Usable entries read from the publisher's feeds. */
  entries: number;
  inserted: number;
  updated: number;
  /** One line per feed that failed, naming the feed. */
  errors: string[];
}

export interface SyncReport {
  startedAt: string;
  finishedAt: string;
  sources: SourceReport[];
}

export interface FeedSyncOptions {
  connection: Connection;
  logger: Logger;
  publishers: Publisher[];
  limits?: FetchLimits;
}

/**
 * Fetches every publisher's feeds and stores their articles, one publisher independent of the
 * others: a timeout, an HTTP error or a broken feed is recorded on that publisher and the rest go
 * on. One run at a time per process; a second caller joins the run in progress.
 */
export function feedSync({ connection, logger, publishers, limits = DEFAULT_FETCH_LIMITS }: FeedSyncOptions) {
  const Article = articleModel(connection);
  const Source = sourceModel(connection);
  const ids = idSequence(connection, 'articles');
  let running: Promise<SyncReport> | undefined;
  let stopping = new AbortController();

  /**
   * Inserts a new URL, or updates this publisher's stored article of a known one; never a
   * duplicate. A URL another publisher stored first (syndication) stays that publisher's.
   */
  async function store(entry: FeedEntry, publisher: Publisher): Promise<'inserted' | 'updated' | 'unchanged'> {
    const content = { title: entry.title, summary: entry.summary, published_at: entry.publishedAt, companies: entry.companies };
    const update = async () => {
      const result = await Article.updateOne({ url: entry.url, source: publisher.id }, { $set: content });
      return result.matchedCount === 0 ? undefined : result.modifiedCount ? ('updated' as const) : ('unchanged' as const);
    };
    const known = await update();
    if (known) return known;
    if (await Article.exists({ url: entry.url })) return 'unchanged';
    try {
      // a taken _id is re-drawn by insertWithSequenceId; a duplicate url is rethrown
      await insertWithSequenceId(Article, ids, (_id) => ({ _id, url: entry.url, ...content, source: publisher.id, source_name: publisher.name, fetched_at: new Date() }) as ArticleDoc);
      return 'inserted';
    } catch (err) {
      // the url stored meanwhile by a concurrent sync (another replica): the unique index kept it single
      if ((err as { code?: number }).code !== 11000) throw err;
      return (await update()) ?? 'unchanged';
    }
  }

  async function syncFeed(publisher: Publisher, url: string, report: SourceReport): Promise<void> {
    try {
      const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(limits.timeoutMs)]);
      const entries = readFeed(await fetchFeed(url, { ...limits, signal }));
      report.entries += entries.length;
      for (const entry of entries) {
        const outcome = await store(entry, publisher);
        if (outcome === 'inserted') report.inserted++;
        if (outcome === 'updated') report.updated++;
      }
      await Source.updateOne({ _id: publisher.id }, { $set: { name: publisher.name, last_success_at: new Date() } }, { upsert: true });
    } catch (err) {
      const message = err instanceof FeedError ? err.message : 'internal error (see the service log)';
      if (!(err instanceof FeedError)) logger.error({ err, source: publisher.id, feed: url }, 'feed sync failed');
      else logger.warn({ source: publisher.id, feed: url, reason: message }, 'feed not read');
      report.errors.push(`${url}: ${message}`);
      await Source.updateOne(
        { _id: publisher.id },
        { $set: { name: publisher.name, last_error_at: new Date(), last_error: `${url}: ${message}` } },
        { upsert: true },
      ).catch((e: unknown) => logger.error({ err: e }, 'cannot record a feed error'));
    }
  }

  async function syncPublisher(publisher: Publisher): Promise<SourceReport> {
    const report: SourceReport = { id: publisher.id, name: publisher.name, entries: 0, inserted: 0, updated: 0, errors: [] };
    for (const url of publisher.feeds) await syncFeed(publisher, url, report);
    try {
      const count = await Article.countDocuments({ source: publisher.id });
      await Source.updateOne({ _id: publisher.id }, { $set: { name: publisher.name, article_count: count } }, { upsert: true });
    } catch (err) {
      logger.error({ err, source: publisher.id }, 'cannot count the articles of a source');
    }
    return report;
  }

  return {
    publishers,

    /** Runs a sync (or joins the one in progress) and reports what each publisher gave. */
    run(): Promise<SyncReport> {
      running ??= (async () => {
        const startedAt = new Date().toISOString();
        const sources = await Promise.all(publishers.map(syncPublisher));
        return { startedAt, finishedAt: new Date().toISOString(), sources };
      })().finally(() => {
        running = undefined;
      });
      return running;
    },

    /** Cancels the fetches of a run in progress and waits for it to end. */
    async stop(): Promise<void> {
      stopping.abort();
      await running?.catch(() => undefined);
      stopping = new AbortController();
    },
  };
}

export type FeedSync = ReturnType<typeof feedSync>;
