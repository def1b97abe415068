import { decode } from 'html-entities';

/** Feed titles and summaries often carry HTML: keep the words, drop the markup, squeeze spaces. */
export function plainText(html: string | null | undefined, max: number): string {
  if (!html) return '';
  const text = decode(
    html
      .replace(/<(script|style)[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<[^>]*>/g, ' '),
  )
    .replace(/\s+/g, ' ')
    .trim();
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
