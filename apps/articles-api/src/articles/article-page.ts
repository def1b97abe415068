import { fillPage, type CountedPageReader } from '@lib/paging';
import type { z } from '@lib/validation';
import type { ArticleDoc } from './article.model';
import { DEFAULT_LIMIT, PAGE_BUDGET_BYTES, type listEnvelope } from './article.schemas';
import { articleView, type ArticleView } from './article.view';

/**
 * Articles read from the database at a time: a default page (and the one beyond it) in one find, as
 * an unbounded read would, so that the common page costs the count and one read. At their bounds
 * 21 articles are about 6 MB stored, under the page budget; larger pages are read in more batches.
 */
export const READ_BATCH = DEFAULT_LIMIT;

/** The envelope around the articles, at its widest (every number at its largest), so that any page's frame fits. */
const FRAME_BYTES = Buffer.byteLength(JSON.stringify({ status: true, offset: 1_000_000_000, limit: 200, total: Number.MAX_SAFE_INTEGER, data: [] }));

type ListEnvelope = z.input<typeof listEnvelope>;

/**
 * The spec's list envelope of the page at `offset`, written as it is sent: the articles are read a
 * batch at a time and each is written and measured; the page ends before the first that would take
 * the answer over PAGE_BUDGET_BYTES (one article at its bounds always fits). A page cut short says
 * so in its `limit`: the number of articles it holds, so that a client stepping by `offset + limit`
 * (or by the length of `data`) misses none. A page not cut keeps the `limit` asked for.
 */
export async function listReply(reader: CountedPageReader<ArticleDoc>, offset: number): Promise<{ status: 200; body: ListEnvelope; text: string }> {
  const views: ArticleView[] = [];
  const filled = await fillPage(reader, {
    size: reader.size,
    bytes: PAGE_BUDGET_BYTES - FRAME_BYTES,
    separatorBytes: 1,
    readBatch: READ_BATCH,
    present: async (docs) => docs.map(articleView),
    write: (view, index) => {
      views[index] = view;
      return JSON.stringify(view);
    },
  });
  const data = views.slice(0, filled.texts.length);
  const cut = filled.more && data.length < reader.size;
  const body: ListEnvelope = { status: true, offset, limit: cut ? data.length : reader.size, total: await reader.count, data };
  // JSON.stringify(body), with the articles' texts as they were measured
  const text = `{"status":true,"offset":${offset},"limit":${body.limit},"total":${body.total},"data":[${filled.texts.join(',')}]}`;
  return { status: 200, body, text };
}
