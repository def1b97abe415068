import { responseOf } from '@lib/routing';
import { flatErrorSchema } from '@lib/errors';
import { pathId, queryInt, text, z } from '@lib/validation';

export const TITLE_MAX = 255;
export const CONTENT_MAX = 100_000;
export const DEFAULT_LIMIT = 20;
/**
 * The page budget (docs/RESILIENCE.md, "Bounds"): a page ends before the article that would take
 * the answer over it (article-page.ts), and its envelope's `limit` then says how many it holds. An
 * article at its bounds is about 300 kB (3 × (255 + 100 000) bytes of UTF-8), so about 27 of them fit.
 */
export const PAGE_BUDGET_BYTES = 8 * 1024 * 1024;
/** The largest `limit` (issue 22: every list takes page sizes up to at least 200). */
export const MAX_LIMIT = 200;

/** Create and replace take exactly these fields; id and timestamps belong to the service. */
export const articleInput = z.strictObject({
  title: text({ max: TITLE_MAX, description: 'Article title' }),
  content: text({ max: CONTENT_MAX, description: 'Article body' }),
});

export const idParams = z.strictObject({ id: pathId });

export const listQuery = z.strictObject({
  offset: queryInt({ min: 0, max: 1_000_000_000, description: 'Articles to skip (default 0)' }).default(0),
  limit: queryInt({
    min: 1,
    max: MAX_LIMIT,
    description: `Articles per page (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}). A page that would exceed ${PAGE_BUDGET_BYTES / 1024 / 1024} MiB ends early, and its envelope's limit is then the number of articles it holds: the next page is at offset + that limit`,
  }).default(DEFAULT_LIMIT),
});

const timestamp = z.string().meta({ description: 'UTC, YYYY-MM-DD HH:MM:SS', example: '2026-11-21 14:03:07' });

export const articleOutput = z.strictObject({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
}).meta({ id: 'Article' });

export const singleEnvelope = z.strictObject({ status: z.literal(true), data: articleOutput });

export const listEnvelope = z.strictObject({
  status: z.literal(true),
  offset: z.number().int(),
  limit: z.number().int().meta({ description: 'The limit asked for; when the page ended early at its byte budget, the number of articles it holds (the next page is at offset + limit)' }),
  total: z.number().int().meta({ description: 'Number of all articles' }),
  data: z.array(articleOutput),
});

/** The error body (flatErrorBody), as the OpenAPI component `Error`. */
export const errorEnvelope = flatErrorSchema.meta({ id: 'Error' });

/** A response of the error body, under its own description. */
export const errorResponse = responseOf(errorEnvelope);
