export interface FetchLimits {
  /** Whole request, headers and body, in milliseconds. */
  timeoutMs: number;
  /** Largest accepted body in bytes; a larger one is abandoned while it streams. */
  maxBytes: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024 };

/** A publisher's feed could not be fetched; the message is safe to show in GET /sources. */
export class FeedError extends Error {
  override name = 'FeedError';
}

/** Fetches a feed's text with a time limit and a size limit; `signal` also ends it (shutdown). */
export async function fetchFeed(url: string, limits: FetchLimits & { signal?: AbortSignal }): Promise<string> {
  const signal = limits.signal ?? AbortSignal.timeout(limits.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      signal,
      redirect: 'follow',
      headers: { accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1', 'user-agent': 'news-api feed reader' },
    });
  } catch (err) {
    throw new FeedError(signal.aborted ? abortReason(signal, limits) : `cannot connect: ${causeOf(err)}`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new FeedError(`HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > limits.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new FeedError(`body larger than ${limits.maxBytes} bytes`);
  }
  return readLimited(response, limits, signal);
}

async function readLimited(response: Response, limits: FetchLimits, signal: AbortSignal): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limits.maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new FeedError(`body larger than ${limits.maxBytes} bytes`);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof FeedError) throw err;
    throw new FeedError(signal.aborted ? abortReason(signal, limits) : `connection failed: ${causeOf(err)}`);
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}

const abortReason = (signal: AbortSignal, limits: FetchLimits) =>
  (signal.reason as Error | undefined)?.name === 'TimeoutError' ? `no complete answer within ${limits.timeoutMs} ms` : 'stopped (shutting down)';

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}
