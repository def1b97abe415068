import { plainText, rawPrefixLength, stripMarkup } from '../src/feeds/plain-text';

const FIVE_MB = 5 * 1024 * 1024;

/** Hostile item texts, each `size` characters long. */
const HOSTILE: Record<string, (size: number) => string> = {
  '‹ characters': (size) => '‹'.repeat(size),
  '<<<<': (size) => '<'.repeat(size),
  'unclosed tags': (size) => '<a '.repeat(size / 3),
  'tags without a name': (size) => '</'.repeat(size / 2),
  '<script without its end': (size) => `<script>${'x'.repeat(size - 8)}`,
  'many script starts': (size) => '<script'.repeat(size / 7),
  'script end look-alikes': (size) => `<script>${'</scrip'.repeat(size / 7)}`,
  'deeply nested markup': (size) => '<b><i>'.repeat(size / 6),
  'unclosed comments': (size) => '<!--'.repeat(size / 4),
  'an entity flood': (size) => '&amp;'.repeat(size / 5),
  'numeric entities': (size) => '&#x3c;&#60;'.repeat(size / 11),
  'unterminated entities': (size) => '&aaaaaaaaaa'.repeat(size / 11),
  'whitespace runs': (size) => ' \n\t'.repeat(size / 3),
  'surrogate pairs': (size) => '😀'.repeat(size / 2),
};

describe('plainText', () => {
  it('keeps the words and drops the markup, as before', () => {
    expect(plainText('<p>Coles <b>and</b> Woolworths&nbsp;(ASX: WOW) &amp; <a href="https://x">more</a></p>', 500)).toBe('Coles and Woolworths (ASX: WOW) & more');
    expect(plainText('before<script type="text/javascript">alert("<b>x</b>")</script>after<STYLE>p { color: red }</STYLE>end', 500)).toBe('before after end');
    expect(plainText('a <!-- a comment with <b>tags</b> --> b <!----> c', 500)).toBe('a b c');
    expect(plainText('a < b and c > d; x<3', 500)).toBe('a < b and c > d; x<3');
    expect(plainText('&lt;p&gt; is shown as text', 500)).toBe('<p> is shown as text');
    expect(plainText('<scripts>kept</scripts> <styled>kept too</styled>', 500)).toBe('kept kept too');
    expect(plainText('   spaced\n\n\tout   ', 500)).toBe('spaced out');
    expect(plainText(null, 500)).toBe('');
  });

  it('drops markup left open at the end (a cut item), as a browser does', () => {
    expect(plainText('Words <a href="https://example.com/very', 500)).toBe('Words');
    expect(plainText('Words <script>var x = 1;', 500)).toBe('Words');
    expect(plainText('Words <!-- never closed', 500)).toBe('Words');
  });

  it('cuts to the maximum with an ellipsis, never inside a character', () => {
    expect(plainText('word '.repeat(300), 500)).toHaveLength(500);
    expect(plainText('word '.repeat(300), 500).endsWith('word…')).toBe(true);
    const emoji = plainText('😀'.repeat(300), 9);
    expect(emoji).toBe('😀😀😀😀…');
  });

  it.each(Object.keys(HOSTILE))('reads only the first rawPrefixLength(max) characters of an item of 5 MB of %s', (name) => {
    for (const max of [500, 1000]) {
      const limit = rawPrefixLength(max);
      const head = HOSTILE[name](limit + 600).slice(0, limit);
      const text = plainText(head + HOSTILE[name](FIVE_MB), max);
      // whatever follows the prefix changes nothing: it is never looked at
      expect(plainText(head + 'tail that differs <b>entirely</b>', max)).toBe(text);
      expect(text.length).toBeLessThanOrEqual(max);
      expect(text).not.toMatch(/[\uD800-\uDBFF]$/);
    }
  });

  it('reads a 5 MB item of each hostile kind', () => {
    for (const make of Object.values(HOSTILE)) expect(plainText(make(FIVE_MB), 1000).length).toBeLessThanOrEqual(1000);
  });
});

describe('stripMarkup', () => {
  /** The characters stripMarkup reads from `text` (each charCodeAt, and each character a slice copies). */
  function readsOf(text: string): number {
    let reads = 0;
    stripMarkup({
      length: text.length,
      charCodeAt: (i: number) => (reads++, text.charCodeAt(i)),
      slice: (from?: number, to?: number) => {
        const part = text.slice(from, to);
        reads += part.length;
        return part;
      },
    });
    return reads;
  }

  it.each(Object.keys(HOSTILE))('does work linear in the length of %s: a bounded number of reads per character, 4× for 4× the input', (name) => {
    const n = 64 * 1024;
    const [once, fourTimes] = [readsOf(HOSTILE[name](n)), readsOf(HOSTILE[name](4 * n))];
    expect(once).toBeLessThanOrEqual(10 * n);
    // quadratic work would read 16× as much
    expect(fourTimes).toBeLessThanOrEqual(4 * once + 100);
  });
});
