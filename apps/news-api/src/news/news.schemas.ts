import { pathId, queryInt, z } from '@lib/validation';
import { accessTokenField, apiKeyField } from '../auth/access-token';
import { companyByCode } from '../companies/companies';
import { domainName } from './domains';
import { languageCode } from './language';
import { MAX_QUERY_DEPTH, MAX_QUERY_LENGTH, MAX_QUERY_WORDS, parseSearchQuery, QuerySyntaxError } from './search/query-syntax';
import { RANK_WINDOW } from './search/relevance-pager';
import type { SearchField } from './search/search-fields';

export const DEFAULT_PAGE = 20;
/** What clients of paged APIs ask for (up to 200); a page of 200 at the stored bounds is under 2 MB, well inside the 8 MiB page budget. */
export const MAX_PAGE = 200;
const MAX_LIST = 20;

/**
 * `a,b` or a repeated parameter: one list either way, each value read by `read` (a string is the
 * problem, named with the parameter; otherwise the value to use).
 */
const list = <T>(read: (value: string) => { value: T } | string, description: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((value, ctx) => {
      const values = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).map((v) => v.trim());
      if (values.length > MAX_LIST) ctx.addIssue({ code: 'custom', message: `must list at most ${MAX_LIST} values` });
      const read_ = values.map(read);
      const problem = read_.find((r): r is string => typeof r === 'string');
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
      return read_.flatMap((r) => (typeof r === 'string' ? [] : [r.value]));
    })
    .meta({ description, override: ({ jsonSchema }) => Object.assign(jsonSchema, { type: 'string', anyOf: undefined }) });

/** A list of values that are used as they are, each checked by `problem`. */
const checked = (problem: (value: string) => string | undefined) => (value: string) => problem(value) ?? { value };

const asxCode = (code: string) => {
  if (!/^[A-Z0-9]{3}$/.test(code)) return `"${code}" is not an ASX code: use codes such as BHP or CBA, in capitals`;
  return companyByCode(code) ? undefined : `${code} is not a company GET /companies knows`;
};

const domain = (text: string) => {
  const name = domainName(text);
  return name ? { value: name } : `"${text.slice(0, 100)}" is not a domain name such as abc.net.au`;
};

const language = (code: string) => (languageCode(code) ? undefined : `"${code.slice(0, 20)}" is not an ISO 639-1 language code in lower case, such as en`);

/** The names `searchIn` takes (NewsAPI's), and the field each searches. */
const SEARCH_IN: Record<string, SearchField> = { title: 'title', description: 'summary', content: 'content' };
const searchIn = (name: string) => (Object.hasOwn(SEARCH_IN, name) ? { value: SEARCH_IN[name] } : `"${name.slice(0, 20)}" is not a field to search: use title, description (the summary) or content`);

/** `2026-11-01` (a whole day, UTC) or `2026-11-01T09:30:00Z` / `…+11:00`. */
const instant = (edge: 'start' | 'end') =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], 'must be an ISO 8601 date (2026-11-01) or date-time (2026-11-01T09:30:00Z)')
    .transform((value) => {
      if (value.length > 10) return new Date(value);
      return new Date(edge === 'start' ? `${value}T00:00:00.000Z` : `${value}T23:59:59.999Z`);
    });

const Q_DESCRIPTION = `The words to search for, in a query language (README, "Search"); case and accents do not matter.
- \`iron ore\`: both words (a space means AND); \`"iron ore"\`: the phrase, words side by side in that order
- \`+lithium\`: must appear (as every word does); \`-copper\` or \`NOT copper\`: must not appear
- \`AND\`, \`OR\`, \`NOT\` in capitals, and parentheses: \`(lithium OR nickel) AND price NOT "rio tinto"\`
- a backslash makes the next character plain: \`\\-5\`, \`\\AND\`; inside a phrase \`\\"\` and \`\\\\\`
- precedence: NOT, + and - bind tightest, then AND (or a space), then OR
- words are runs of letters and digits: \`lithium-ion\` is the phrase "lithium ion"; punctuation alone is left out
- at most ${MAX_QUERY_LENGTH} characters, ${MAX_QUERY_WORDS} words (a phrase counts each of its words) and ${MAX_QUERY_DEPTH} levels of parentheses

Grammar (ABNF-like): query = or; or = and *("OR" and); and = unary *(["AND"] unary); unary = "NOT" unary / ("+" / "-") primary / primary; primary = "(" or ")" / DQUOTE *char DQUOTE / word.
A malformed query is a 400 whose message gives the position (1-based, in characters), e.g. q: at character 7: this "(" is not closed.`;

/** The parsed query; the text too, for the cursor's scope. */
const searchQuery = z
  .string()
  // the parser counts characters (code points) and names the position; this only stops a huge value early
  .max(4 * MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`)
  .refine((text) => text.trim() !== '', 'must not be empty')
  .transform((text, ctx) => {
    try {
      return { text, node: parseSearchQuery(text) };
    } catch (err) {
      if (!(err instanceof QuerySyntaxError)) throw err;
      ctx.addIssue({ code: 'custom', message: err.message });
      return z.NEVER;
    }
  })
  .meta({ description: Q_DESCRIPTION, example: '"iron ore" OR lithium -copper' });

export const SORTS = ['newest', 'oldest', 'relevancy'] as const;

export function newsQuery(sourceIds: string[]) {
  const source = (id: string) => (sourceIds.includes(id) ? undefined : `"${id}" is not a source of GET /sources`);
  return z
    .strictObject({
      q: searchQuery.optional(),
      searchIn: list(searchIn, 'Where q looks: title, description (the summary), content (the start of the full text, when the feed carries it); comma-separated; default all three').optional(),
      company: list(checked(asxCode), 'ASX codes, comma-separated or repeated; articles mentioning any of them').optional(),
      source: list(checked(source), 'Publisher ids of GET /sources, comma-separated or repeated').optional(),
      domains: list(domain, "Articles whose link is on one of these domains or their subdomains (abc.net.au also matches www.abc.net.au); comma-separated; see each source's domain in GET /sources").optional(),
      excludeDomains: list(domain, 'Articles whose link is on none of these domains or their subdomains; comma-separated').optional(),
      language: list(checked(language), 'ISO 639-1 codes, comma-separated: articles in any of these languages (their source\'s language, see GET /sources)').optional(),
      from: instant('start').optional().meta({ description: 'Published at or after: a date (from its start, UTC) or a date-time' }),
      to: instant('end').optional().meta({ description: 'Published at or before: a date (to its end, UTC) or a date-time' }),
      sort: z.enum(SORTS).default('newest').meta({
        description: `newest (default) or oldest: by publication time; relevancy: by how well articles match q (BM25), the newer first among equals, ranked ${RANK_WINDOW} matches at a time from the newest (README, "Relevance")`,
      }),
      limit: queryInt({ min: 1, max: MAX_PAGE, description: `Page size (default ${DEFAULT_PAGE}, at most ${MAX_PAGE})` }).default(DEFAULT_PAGE),
      cursor: z.string().max(1024).optional().meta({ description: 'next_cursor of the previous page (same filters)' }),
      ...accessTokenField,
      ...apiKeyField,
    })
    .refine((query) => !query.from || !query.to || query.from <= query.to, { path: ['to'], message: 'must not be before from' })
    .refine((query) => query.sort !== 'relevancy' || query.q !== undefined, { path: ['sort'], message: 'relevancy ranks the matches of q: give q too' });
}

export type NewsQuery = z.output<ReturnType<typeof newsQuery>>;

export const articleParams = z.strictObject({ id: pathId });
export const articleQuery = z.strictObject({ ...accessTokenField, ...apiKeyField });

export const articleOutput = z.strictObject({
  id: z.number().int(),
  title: z.string(),
  summary: z.string().meta({ description: 'Plain text, at most 1000 characters' }),
  url: z.string().meta({ description: 'Canonical URL of the article at its publisher' }),
  publisher: z.strictObject({ id: z.string(), name: z.string() }),
  publishedAt: z.string().meta({ description: 'ISO 8601, UTC', example: '2026-11-21T03:15:00.000Z' }),
  companies: z.array(z.strictObject({ code: z.string(), name: z.string() })),
}).meta({ id: 'Article' });

export const newsPage = z.strictObject({
  total: z.number().int().meta({ description: 'Articles matching the filters, over all pages' }),
  data: z.array(articleOutput),
  has_more: z.boolean(),
  next_cursor: z.string().optional(),
});
