import { escapeRegex } from '@lib/mongo';
import { COMPANIES, companyByCode, type Company } from './companies';

// "ASX: BHP", "(ASX:CBA)", "ASX code: WES"
const TICKER = /\bASX(?:\s+code)?\s*:\s*([A-Z0-9]{3})\b/g;

function nameMatcher(companies: readonly Company[]) {
  const codeByName = new Map<string, string>();
  for (const company of companies) for (const name of [company.name, ...(company.aliases ?? [])]) codeByName.set(name, company.code);
  // Longest first, so "Commonwealth Bank of Australia" wins over "Commonwealth Bank". Names are
  // matched case-sensitively as whole words: "Coles" the grocer, not "coles" in a sentence.
  const names = [...codeByName.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${names.map(escapeRegex).join('|')})(?![\\p{L}\\p{N}])`, 'gu');
  return (text: string) => [...text.matchAll(pattern)].flatMap((m) => codeByName.get(m[0]) ?? []);
}

const namesIn = nameMatcher(COMPANIES);

/** The ASX codes of the listed companies a text mentions, by ticker or by name, sorted. */
export function companiesMentioned(text: string): string[] {
  const codes = new Set<string>();
  for (const match of text.matchAll(TICKER)) if (companyByCode(match[1])) codes.add(match[1]);
  for (const code of namesIn(text)) codes.add(code);
  return [...codes].sort();
}
