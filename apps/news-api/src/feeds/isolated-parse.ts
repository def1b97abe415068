import { Worker } from 'node:worker_threads';
import { FeedError } from './feed-error';

/** An item's fields as the parser read them, each cut to the length its use reads. */
export interface ParsedItem {
  url: string | null;
  title: string | null;
  description: string | null;
  content: string | null;
  /** Milliseconds since the epoch, or null when absent or unreadable. */
  published: number | null;
  updated: number | null;
}

export interface IsolatedParseOptions {
  /** Time for the whole parse; past it the worker is stopped and the feed abandoned. */
  budgetMs: number;
  /** Items read at most (feeds list their newest first). */
  maxItems: number;
  /** Characters of each field kept: the raw prefix its plain text is made from. */
  cut: { title: number; description: number; content: number };
  /** Stops the parse (shutdown). */
  signal?: AbortSignal;
}

/** Heap of one parse: a 5 MB feed of 250 full articles takes ~20 MB; hostile markup (millions of attributes) would take gigabytes. */
export const PARSE_HEAP_MB = 64;

// Plain JavaScript run by the worker; it receives the feed and the cut lengths in workerData.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { parseFeed } = require(workerData.parser);
const { cut, maxItems } = workerData;
const text = (value, max) => (typeof value === 'string' ? value.slice(0, max) : null);
const time = (date) => (date instanceof Date && !Number.isNaN(date.getTime()) ? date.getTime() : null);
try {
  const items = parseFeed(workerData.xml).items.slice(0, maxItems).map((item) => ({
    url: typeof item.url === 'string' && item.url.length <= 8192 ? item.url : null,
    title: text(item.title, cut.title),
    description: text(item.description, cut.description),
    content: text(item.content, cut.content),
    published: time(item.published),
    updated: time(item.updated),
  }));
  parentPort.postMessage({ items });
} catch (err) {
  parentPort.postMessage({ error: String((err && err.message) || err).slice(0, 300) });
}
`;

// one parse at a time per process: a replica's memory holds its own heap and one parse's, never several
let queue: Promise<unknown> = Promise.resolve();

/**
 * Parses an RSS or Atom document with @rowanmanning/feed-parser in a worker thread with its own
 * heap limit (PARSE_HEAP_MB) and a time budget: a document that needs more time or memory is
 * abandoned (FeedError naming the reason) and the worker stopped, so no feed can stall the
 * process's event loop (requests, the sync lease's renewal) or exhaust its heap.
 */
export function parseIsolated(xml: string, options: IsolatedParseOptions): Promise<ParsedItem[]> {
  const run = queue.then(() => parseInWorker(xml, options));
  queue = run.catch(() => undefined);
  return run;
}

function parseInWorker(xml: string, { budgetMs, maxItems, cut, signal }: IsolatedParseOptions): Promise<ParsedItem[]> {
  if (signal?.aborted) return Promise.reject(new FeedError('stopped (shutting down)'));
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { xml, maxItems, cut, parser: require.resolve('@rowanmanning/feed-parser') },
      resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB, maxYoungGenerationSizeMb: 16 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (err: FeedError | undefined, items?: ParsedItem[]) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (err) reject(err);
      else resolve(items ?? []);
    };
    const onAbort = () => finish(new FeedError('stopped (shutting down)'));
    const timer = setTimeout(() => finish(new FeedError(`reading the feed took longer than ${budgetMs} ms: abandoned`)), budgetMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (message: { items?: ParsedItem[]; error?: string }) =>
      finish(message.error !== undefined ? new FeedError(`not a readable RSS or Atom feed (${message.error})`) : undefined, message.items),
    );
    worker.once('error', (err: Error & { code?: string }) =>
      finish(new FeedError(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `reading the feed needed more than ${PARSE_HEAP_MB} MB: abandoned` : `cannot read the feed (${err.code ?? err.name})`)),
    );
    worker.once('exit', (code) => finish(new FeedError(`cannot read the feed (the parser stopped with code ${code})`)));
  });
}
