import { decode } from 'html-entities';

/**
 * Raw characters read for each character kept: the markup around a feed's words (links, spans, an
 * image) fits in it many times over; what lies beyond is never looked at, however long the item.
 */
const RAW_PER_KEPT = 8;
const MIN_RAW = 16 * 1024;

/** How much of an item's raw text plainText reads for a text of at most `max` characters. */
export const rawPrefixLength = (max: number) => Math.max(max * RAW_PER_KEPT, MIN_RAW);

/**
 * Feed titles and summaries often carry HTML: keep the words, drop the markup, decode entities,
 * squeeze spaces, cut to `max` characters. Reads only the first rawPrefixLength(max) characters,
 * in one pass (stripMarkup), so its work is bounded whatever the item holds.
 */
export function plainText(html: string | null | undefined, max: number): string {
  if (!html) return '';
  const raw = wholeCharacters(html.slice(0, rawPrefixLength(max)));
  const text = decode(stripMarkup(raw)).replace(/\s+/g, ' ').trim();
  return text.length <= max ? text : `${wholeCharacters(text.slice(0, max - 1)).trimEnd()}…`;
}

const LT = 0x3c; // <
const GT = 0x3e; // >
const SLASH = 0x2f;
const DASH = 0x2d;
const BANG = 0x21;
const QUESTION = 0x3f;

const isLetter = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
const isNameCharacter = (code: number) => isLetter(code) || (code >= 0x30 && code <= 0x39) || code === DASH;
/** `<` starts markup when followed by a letter, `/`, `!` or `?` (as in HTML); otherwise it is text ("a < b"). */
const startsMarkup = (code: number) => isLetter(code) || code === SLASH || code === BANG || code === QUESTION;

/** What stripMarkup reads: a string, or in tests a wrapper that counts the reads. */
export type MarkupSource = Pick<string, 'length' | 'charCodeAt' | 'slice'>;

/** Whether the ASCII letters of `word` (lower-case) are at `at`, in any case: a constant number of reads. */
function lettersAt(html: MarkupSource, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if ((html.charCodeAt(at + k) | 0x20) !== word.charCodeAt(k)) return false;
  return true;
}

/** `script` or `style` when the tag name at `at` is one of them (any case): their content is not text. */
function rawTextElement(html: MarkupSource, at: number): string {
  for (const name of ['script', 'style']) if (lettersAt(html, at, name) && !isNameCharacter(html.charCodeAt(at + name.length))) return name;
  return '';
}

const enum State {
  Text,
  Tag,
  Comment,
  RawText,
}

/**
 * The text of an HTML fragment without its markup: tags, comments, and the content of script and
 * style elements, each replaced by a space. One forward pass over the characters with a look-ahead
 * of at most 8: linear time, no backtracking, whatever the input (`<<<<`, unclosed tags or
 * comments, a `<script` without its end). Markup left open at the end is dropped, as a browser
 * drops it.
 */
export function stripMarkup(html: MarkupSource): string {
  const parts: string[] = [];
  let state = State.Text;
  let textFrom = 0;
  let rawText = '';
  for (let i = 0; i < html.length; i++) {
    const code = html.charCodeAt(i);
    switch (state) {
      case State.Text:
        if (code === LT && startsMarkup(html.charCodeAt(i + 1))) {
          parts.push(html.slice(textFrom, i));
          if (html.charCodeAt(i + 1) === BANG && html.charCodeAt(i + 2) === DASH && html.charCodeAt(i + 3) === DASH) {
            state = State.Comment;
            i += 3;
          } else {
            state = State.Tag;
            rawText = rawTextElement(html, i + 1);
          }
        }
        break;
      case State.Tag:
        if (code === GT) {
          state = rawText ? State.RawText : State.Text;
          textFrom = i + 1;
        }
        break;
      case State.Comment:
        if (code === GT && html.charCodeAt(i - 1) === DASH && html.charCodeAt(i - 2) === DASH) {
          state = State.Text;
          textFrom = i + 1;
        }
        break;
      case State.RawText:
        if (code === LT && html.charCodeAt(i + 1) === SLASH && lettersAt(html, i + 2, rawText)) {
          state = State.Tag;
          rawText = '';
        }
        break;
    }
  }
  if (state === State.Text) parts.push(html.slice(textFrom));
  return parts.join(' ');
}

/** Drops a high surrogate left alone at the end by a cut, so no half character is stored. */
function wholeCharacters(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}
