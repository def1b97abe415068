import { z } from '@lib/validation';
import companiesFile from './asx-companies.json';

export const SECTORS = [
  'Communication Services',
  'Consumer Discretionary',
  'Consumer Staples',
  'Energy',
  'Financials',
  'Health Care',
  'Industrials',
  'Information Technology',
  'Materials',
  'Real Estate',
  'Utilities',
] as const;

const companySchema = z.strictObject({
  code: z.string().regex(/^[A-Z0-9]{3}$/),
  name: z.string().min(2),
  sector: z.enum(SECTORS),
  /** Other names the press uses ("Commonwealth Bank"); matched like the name. */
  aliases: z.array(z.string().min(2)).optional(),
});

export type Company = z.output<typeof companySchema>;

/** The ASX-listed companies this service knows (apps/news-api/src/companies/asx-companies.json), by code. */
export const COMPANIES: readonly Company[] = z.array(companySchema).parse(companiesFile);

const byCode = new Map(COMPANIES.map((c) => [c.code, c]));

export const companyByCode = (code: string) => byCode.get(code);

// made once: every article view shares them
const refs = new Map(COMPANIES.map((c) => [c.code, Object.freeze({ code: c.code, name: c.name })]));

/** `{code, name}` of an article's company; a code no longer in the list keeps the code as its name. */
export const companyRef = (code: string): { code: string; name: string } => refs.get(code) ?? { code, name: code };

/** Companies whose code starts with, or whose name or alias contains, `q` (any case), in a sector. */
export function searchCompanies(q: string | undefined, sector: string | undefined): Company[] {
  const needle = q?.trim().toLowerCase();
  return COMPANIES.filter(
    (c) =>
      (!sector || c.sector === sector) &&
      (!needle || c.code.toLowerCase().startsWith(needle) || [c.name, ...(c.aliases ?? [])].some((n) => n.toLowerCase().includes(needle))),
  ).sort((a, b) => a.code.localeCompare(b.code));
}
