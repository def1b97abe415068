/** A JSON string (escapes kept) or an org.json single-quoted one, at the sticky position. */
const STRING = /"(?:[^"\\]|\\[^])*"|'(?:[^'\\]|\\[^])*'/y;

/**
 * Parses JSON text in which strings may also be single-quoted (`{'rules':[{'LHS':'tags'}]}`), as
 * the official Java client writes its dynamic filter (the original read it with org.json, which
 * takes both quotes). Each single-quoted string becomes the double-quoted string of the same text
 * (`\'` is a quote, `"` a plain character); everything else must already be JSON, so nothing more
 * is loosened: no unquoted keys, comments, trailing commas or control characters in strings.
 * Undefined when the text is not JSON read that way.
 */
export function parseSingleQuotedJson(text: string): unknown {
  let json = '';
  let at = 0;
  while (at < text.length) {
    const char = text[at];
    if (char !== '"' && char !== "'") {
      json += char;
      at += 1;
      continue;
    }
    STRING.lastIndex = at;
    const string = STRING.exec(text)?.[0];
    if (string === undefined) return undefined; // unterminated
    json += char === '"' ? string : `"${string.slice(1, -1).replace(/\\[^]|"/g, (part) => (part === '"' ? '\\"' : part === "\\'" ? "'" : part))}"`;
    at += string.length;
  }
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}
