import { setTimeout as sleep } from 'node:timers/promises';
import { HttpError } from '@lib/errors';
import type { HeldLease } from '@lib/mongo';
import { counter, type Logger } from '@lib/http';
import type { ArticleRepository } from '../news/article.repository';
import { derivedFields } from '../news/derived-fields';
import { DEFAULT_LANGUAGE } from '../news/language';
import { indexUnindexedArticles } from '../news/search/search-backfill';
import { publisherLanguage, type Publisher } from './feeds-config';
import type { OutboundPolicy } from '@lib/outbound';
import { FeedError } from './feed-error';
import { DEFAULT_FETCH_LIMITS, fetchFeed, type FetchLimits } from './fetch-feed';
import { readFeed, type FeedEntry } from './read-feed';
import type { SourceRepository } from './source.repository';
import type { SyncRunRepository } from './sync-run.repository';

const syncRuns = counter('feed_sync_runs_total', 'Feed syncs this replica ran, by result (completed, interrupted: shutdown or lease lost, failed)', ['result']);
const entriesStored = counter('feed_entries_stored_total', 'Feed entries stored, by source and outcome (inserted, updated)', ['source', 'outcome']);
const feedFailures = counter('feed_fetch_failures_total', 'Feeds that could not be read (timeout, HTTP error, refused by the outbound guard, broken feed, parse budget), by source', ['source']);

export const DEFAULT_SYNC_LEASE_MS = 30_000;

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
  /** Where articles are stored, what is recorded of each publisher, the sync's lease and its last run. */
  repositories: { articles: ArticleRepository; sources: SourceRepository; syncRuns: SyncRunRepository };
  logger: Logger;
  publishers: Publisher[];
  /** What feed fetches may reach (outboundPolicy of @lib/outbound, with FEED_ALLOWED_HOSTS). */
  policy: OutboundPolicy;
  limits?: FetchLimits;
  /** How long a sync's lease lasts unrenewed (renewed every third of it while the sync runs): a replica killed mid-sync holds the others off this long at most. */
  leaseMs?: number;
  /** How often a caller waiting for another replica's sync looks whether it ended. */
  pollMs?: number;
}

/** A sync stopped before its end (shutdown, or its lease lost): it recorded nothing; another replica runs the next one. */
export const syncInterrupted = () =>
  new HttpError(503, 'sync_interrupted', 'The sync was stopped before it finished (the replica running it is shutting down); call again', {
    headers: { 'Retry-After': '1' },
  });

export const isSyncInterruption = (err: unknown) => err instanceof HttpError && err.code === 'sync_interrupted';

/**
 * Fetches every publisher's feeds and stores their articles, one publisher independent of the
 * others: a timeout, an HTTP error or a broken feed is recorded on that publisher and the rest go
 * on. One run at a time in the whole cluster, under a lease in MongoDB: a caller while a run is in
 * progress (on any replica) joins it and gets its report. A run stopped by shutdown records
 * nothing on the publishers and frees the lease at once.
 */
export function feedSync({ repositories, logger, publishers, policy, limits = DEFAULT_FETCH_LIMITS, leaseMs = DEFAULT_SYNC_LEASE_MS, pollMs = 500 }: FeedSyncOptions) {
  const { articles, sources, syncRuns: runs } = repositories;
  let running: Promise<SyncReport> | undefined;
  let stopping = new AbortController();

  /**
   * Inserts a new URL, or updates this publisher's stored article of a known one; never a
   * duplicate. A URL another publisher stored first (syndication) stays that publisher's.
   */
  async function store(entry: FeedEntry, publisher: Publisher): Promise<'inserted' | 'updated' | 'unchanged'> {
    const content = {
      title: entry.title,
      summary: entry.summary,
      published_at: entry.publishedAt,
      companies: entry.companies,
      ...derivedFields({ url: entry.url, title: entry.title, summary: entry.summary, content: entry.content, language: publisherLanguage(publisher) }),
    };
    const update = () => articles.updateFromFeed(entry.url, publisher.id, content);
    const known = await update();
    if (known) return known;
    if (await articles.urlStored(entry.url)) return 'unchanged';
    try {
      // a taken _id is re-drawn by the insert; a duplicate url is rethrown
      await articles.insert((_id) => ({ _id, url: entry.url, ...content, source: publisher.id, source_name: publisher.name, fetched_at: new Date() }));
      return 'inserted';
    } catch (err) {
      // the url stored meanwhile by a concurrent sync (another replica): the unique index kept it single
      if ((err as { code?: number }).code !== 11000) throw err;
      return (await update()) ?? 'unchanged';
    }
  }

  async function syncFeed(publisher: Publisher, url: string, report: SourceReport, stopped: AbortSignal): Promise<void> {
    try {
      const xml = await fetchFeed(url, { ...limits, policy, signal: stopped });
      const entries = await readFeed(xml, { budgetMs: limits.parseBudgetMs, signal: stopped });
      report.entries += entries.length;
      for (const entry of entries) {
        if (stopped.aborted) return; // stopped (shutdown, or the lease lost): write nothing more
        const outcome = await store(entry, publisher);
        if (outcome === 'inserted') report.inserted++;
        if (outcome === 'updated') report.updated++;
        if (outcome !== 'unchanged') entriesStored.inc({ source: publisher.id, outcome });
      }
      if (stopped.aborted) return;
      await sources.recordSuccess(publisher);
    } catch (err) {
      if (stopped.aborted) return; // stopped, not the publisher's fault: nothing to record
      feedFailures.inc({ source: publisher.id });
      const message = err instanceof FeedError ? err.message : 'internal error (see the service log)';
      if (!(err instanceof FeedError)) logger.error({ err, source: publisher.id, feed: url }, 'feed sync failed');
      else logger.warn({ source: publisher.id, feed: url, reason: message, ...(err.address && { address: err.address }) }, 'feed not read');
      report.errors.push(`${url}: ${message}`);
      await sources.recordError(publisher, `${url}: ${message}`).catch((e: unknown) => logger.error({ err: e }, 'cannot record a feed error'));
    }
  }

  async function syncPublisher(publisher: Publisher, stopped: AbortSignal): Promise<SourceReport> {
    const report: SourceReport = { id: publisher.id, name: publisher.name, entries: 0, inserted: 0, updated: 0, errors: [] };
    for (const url of publisher.feeds) if (!stopped.aborted) await syncFeed(publisher, url, report, stopped);
    if (stopped.aborted) return report;
    try {
      await sources.recordArticleCount(publisher, await articles.countOfSource(publisher.id));
    } catch (err) {
      logger.error({ err, source: publisher.id }, 'cannot count the articles of a source');
    }
    return report;
  }

  /** Indexes the articles stored before search (or under an older recipe); a failure is logged, the sync goes on. */
  async function indexForSearch(stopped: AbortSignal): Promise<void> {
    const languages = new Map(publishers.map((publisher) => [publisher.id, publisherLanguage(publisher)]));
    try {
      const indexed = await indexUnindexedArticles(articles, (source) => languages.get(source) ?? DEFAULT_LANGUAGE, stopped);
      if (indexed) logger.info({ indexed }, 'articles indexed for search');
    } catch (err) {
      logger.error({ err }, 'cannot index the articles stored before search; the next sync tries again');
    }
  }

  /** Runs a sync holding the lease, and records it as the last run unless it was stopped; frees the lease either way. */
  async function runHolding(lease: HeldLease, stop: AbortSignal): Promise<SyncReport> {
    const stopped = AbortSignal.any([stop, lease.lost]);
    try {
      const startedAt = new Date();
      await indexForSearch(stopped);
      const sources = await Promise.all(publishers.map((publisher) => syncPublisher(publisher, stopped)));
      if (stopped.aborted) throw syncInterrupted();
      const report: SyncReport = { startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), sources };
      await runs.recordLast(lease.token, startedAt, report);
      syncRuns.inc({ result: 'completed' });
      return report;
    } catch (err) {
      syncRuns.inc({ result: isSyncInterruption(err) ? 'interrupted' : 'failed' });
      throw err;
    } finally {
      await lease.release().catch((err: unknown) => logger.warn({ err }, 'cannot release the feed sync lease; it expires by itself'));
    }
  }

  /**
   * Waits for the run `holder` of another replica to end: its report, or undefined when it ended
   * without one (stopped, or its replica died and the lease expired). The lease is read before the
   * report, which is written before the lease is freed: a run that ended is never missed.
   */
  async function awaitRun(holder: string, stop: AbortSignal): Promise<SyncReport | undefined> {
    for (;;) {
      const held = (await runs.leaseHolder()) === holder;
      const last = await runs.last();
      if (last?.run === holder) return last.report;
      if (!held) return undefined;
      await sleep(pollMs, undefined, { signal: stop }).catch(() => undefined);
      if (stop.aborted) throw syncInterrupted();
    }
  }

  async function runOrJoin(stop: AbortSignal): Promise<SyncReport> {
    for (;;) {
      if (stop.aborted) throw syncInterrupted();
      const lease = await runs.tryLease(leaseMs);
      if (lease) return runHolding(lease, stop);
      const holder = await runs.leaseHolder();
      const report = holder && (await awaitRun(holder, stop));
      if (report) return report;
      // that run ended without a report (or the lease was freed meanwhile): take the lease and run
    }
  }

  /** Whether no sync started within `intervalMs` ran to its end, on any replica. */
  async function due(intervalMs: number): Promise<boolean> {
    const startedAt = await runs.lastStartedAt();
    return !startedAt || startedAt.getTime() + intervalMs <= Date.now();
  }

  const track = (run: Promise<SyncReport>) =>
    (running = run.finally(() => {
      running = undefined;
    }));

  return {
    publishers,

    /** Runs a sync, or joins the one in progress on any replica, and reports what each publisher gave; a stopped run is a 503 `sync_interrupted`. */
    run(): Promise<SyncReport> {
      return running ?? track(runOrJoin(stopping.signal));
    },

    /**
     * For the schedule: runs a sync when none that started within `intervalMs` ran to its end (on
     * any replica) and none is running; answers its report, or undefined when no sync was due.
     */
    async runIfDue(intervalMs: number): Promise<SyncReport | undefined> {
      // the stop signal as of this call: a stop() meanwhile must cancel this look, not a later one
      const stop = stopping.signal;
      if (running || stop.aborted || !(await due(intervalMs))) return undefined;
      const lease = await runs.tryLease(leaseMs);
      if (!lease) return undefined;
      // stopped meanwhile, or another replica finished a run between the check and the lease
      if (running || stop.aborted || !(await due(intervalMs))) {
        await lease.release();
        return undefined;
      }
      return track(runHolding(lease, stop));
    },

    /** Cancels the fetches of a run in progress (recording nothing), frees its lease and waits for it to end. */
    async stop(): Promise<void> {
      stopping.abort();
      await running?.catch(() => undefined);
      stopping = new AbortController();
    },
  };
}

export type FeedSync = ReturnType<typeof feedSync>;
