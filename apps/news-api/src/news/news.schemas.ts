import { pathId, queryInt, z } from '@lib/validation';
import { accessTokenField } from '../auth/access-token';
import { companyByCode } from '../companies/companies';

export const DEFAULT_PAGE = 20;
/** What clients of paged APIs ask for (up to 200); a page of 200 at the stored bounds is under 2 MB, well inside the 8 MiB page budget. */
export const MAX_PAGE = 200;
const MAX_LIST = 20;

/**
 * `a,b` or a repeated parameter: one list either way. `problem` says what is wrong with one value;
 * the error names the parameter itself, with the value.
 */
const list = (problem: (value: string) => string | undefined, description: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).map((v) => v.trim()))
    .superRefine((values, ctx) => {
      if (values.length > MAX_LIST) ctx.addIssue({ code: 'custom', message: `must list at most ${MAX_LIST} values` });
      const first = values.map(problem).find(Boolean);
      if (first) ctx.addIssue({ code: 'custom', message: first });
    })
    .meta({ description, override: ({ jsonSchema }) => Object.assign(jsonSchema, { type: 'string', anyOf: undefined }) });

const asxCode = (code: string) => {
  if (!/^[A-Z0-9]{3}$/.test(code)) return `"${code}" is not an ASX code: use codes such as BHP or CBA, in capitals`;
  return companyByCode(code) ? undefined : `${code} is not a company GET /companies knows`;
};

/** `2026-11-01` (a whole day, UTC) or `2026-11-01T09:30:00Z` / `…+11:00`. */
const instant = (edge: 'start' | 'end') =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], 'must be an ISO 8601 date (2026-11-01) or date-time (2026-11-01T09:30:00Z)')
    .transform((value) => {
      if (value.length > 10) return new Date(value);
      return new Date(edge === 'start' ? `${value}T00:00:00.000Z` : `${value}T23:59:59.999Z`);
    });

export function newsQuery(sourceIds: string[]) {
  const source = (id: string) => (sourceIds.includes(id) ? undefined : `"${id}" is not a source of GET /sources`);
  return z
    .strictObject({
      q: z.string().trim().min(1, 'must not be empty').max(200).optional().meta({ description: 'Words that must all appear in the title or summary (any case)', example: 'iron ore' }),
      company: list(asxCode, 'ASX codes, comma-separated or repeated; articles mentioning any of them').optional(),
      source: list(source, 'Publisher ids of GET /sources, comma-separated or repeated').optional(),
      from: instant('start').optional().meta({ description: 'Published at or after: a date (from its start, UTC) or a date-time' }),
      to: instant('end').optional().meta({ description: 'Published at or before: a date (to its end, UTC) or a date-time' }),
      sort: z.enum(['newest', 'oldest']).default('newest').meta({ description: 'By publication time (default newest first)' }),
      limit: queryInt({ min: 1, max: MAX_PAGE, description: `Page size (default ${DEFAULT_PAGE}, at most ${MAX_PAGE})` }).default(DEFAULT_PAGE),
      cursor: z.string().max(1024).optional().meta({ description: 'next_cursor of the previous page (same filters)' }),
      ...accessTokenField,
    })
    .refine((query) => !query.from || !query.to || query.from <= query.to, { path: ['to'], message: 'must not be before from' });
}

export type NewsQuery = z.output<ReturnType<typeof newsQuery>>;

export const articleParams = z.strictObject({ id: pathId });
export const articleQuery = z.strictObject({ ...accessTokenField });

export const articleOutput = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string().meta({ description: 'Plain text, at most 1000 characters' }),
  url: z.string().meta({ description: 'Canonical URL of the article at its publisher' }),
  publisher: z.object({ id: z.string(), name: z.string() }),
  publishedAt: z.string().meta({ description: 'ISO 8601, UTC', example: '2026-11-21T03:15:00.000Z' }),
  companies: z.array(z.object({ code: z.string(), name: z.string() })),
}).meta({ id: 'Article' });

export const newsPage = z.object({
  total: z.number().int().meta({ description: 'Articles matching the filters, over all pages' }),
  data: z.array(articleOutput),
  has_more: z.boolean(),
  next_cursor: z.string().optional(),
});
