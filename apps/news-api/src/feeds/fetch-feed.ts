import { guardedRequest, OutboundError, type OutboundPolicy } from '@lib/outbound';
import { FeedError } from './feed-error';

export interface FetchLimits {
  /** Whole request, redirects, headers and body, in milliseconds. */
  timeoutMs: number;
  /** Largest accepted body in bytes; a larger one is abandoned while it streams. */
  maxBytes: number;
  /** Time to parse the feed once fetched (default PARSE_BUDGET_MS of read-feed). */
  parseBudgetMs?: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024 };
/** Redirects followed per feed (http → https, a moved feed), each target checked by the outbound guard. */
export const FEED_REDIRECTS = 5;

const HEADERS = { accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1', 'user-agent': 'news-api feed reader' };

/**
 * Fetches a feed's text through the outbound guard (https, public addresses unless allow-listed,
 * checked redirects) with a time limit and a size limit; `signal` also ends it (shutdown).
 */
export async function fetchFeed(url: string, options: FetchLimits & { policy: OutboundPolicy; signal?: AbortSignal }): Promise<string> {
  const { policy, timeoutMs, maxBytes, signal } = options;
  let response;
  try {
    response = await guardedRequest(url, { policy, timeoutMs, maxBytes, maxRedirects: FEED_REDIRECTS, signal, headers: HEADERS });
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    throw new FeedError(err.failure === 'aborted' ? 'stopped (shutting down)' : err.message, err.address);
  }
  if (response.status < 200 || response.status > 299) throw new FeedError(`HTTP ${response.status}`);
  if (response.body.truncated) throw new FeedError(`body larger than ${maxBytes} bytes`);
  return new TextDecoder('utf-8').decode(response.body.bytes);
}
