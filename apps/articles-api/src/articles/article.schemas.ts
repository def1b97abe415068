import { flatErrorSchema } from '@lib/errors';
import { pathId, queryInt, text, z } from '@lib/validation';

export const TITLE_MAX = 255;
export const CONTENT_MAX = 100_000;
export const DEFAULT_LIMIT = 20;
/**
 * The page budget (docs/RESILIENCE.md, "Bounds"): an article at its bounds is at most 3 × (255 +
 * 100 000) bytes of text as UTF-8 plus about 150 of envelope, 301 kB; 25 of them are 7.5 MB.
 */
export const PAGE_BUDGET_BYTES = 8 * 1024 * 1024;
export const MAX_LIMIT = 25;

/** Create and replace take exactly these fields; id and timestamps belong to the service. */
export const articleInput = z.strictObject({
  title: text({ max: TITLE_MAX, description: 'Article title' }),
  content: text({ max: CONTENT_MAX, description: 'Article body' }),
});

export const idParams = z.strictObject({ id: pathId });

export const listQuery = z.strictObject({
  offset: queryInt({ min: 0, max: 1_000_000_000, description: 'Articles to skip (default 0)' }).default(0),
  limit: queryInt({ min: 1, max: MAX_LIMIT, description: `Page size (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})` }).default(DEFAULT_LIMIT),
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
  limit: z.number().int(),
  total: z.number().int().meta({ description: 'Number of all articles' }),
  data: z.array(articleOutput),
});

/** The error body (flatErrorBody), as the OpenAPI component `Error`. */
export const errorEnvelope = flatErrorSchema.meta({ id: 'Error' });
