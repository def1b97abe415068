import type sanitizeHtml from 'sanitize-html';

/**
 * Ticket messages are HTML from outside (a requester's email, an agent's client): never stored as
 * sent. sanitize-html keeps its default allow-list (text formatting, lists, tables, links; no
 * script, style, iframe, form, image or event attribute) and only http, https, ftp, mailto and tel
 * links. It is required at the first ticket message: loaded, it holds about 1.7 MB of heap for the
 * process's life (Node 24), which a replica that serves no tickets need not carry.
 */
interface Sanitizer {
  sanitize: typeof sanitizeHtml;
  html: sanitizeHtml.IOptions;
  text: sanitizeHtml.IOptions;
}
let sanitizer: Sanitizer | undefined;

function loadSanitizer(): Sanitizer {
  const sanitize = require('sanitize-html') as typeof sanitizeHtml;
  return {
    sanitize,
    html: {
      allowedTags: sanitize.defaults.allowedTags,
      allowedAttributes: { a: ['href', 'name', 'target', 'rel'] },
      allowedSchemes: ['http', 'https', 'ftp', 'mailto', 'tel'],
      allowProtocolRelative: false,
      transformTags: { a: sanitize.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }) },
    },
    text: { allowedTags: [], allowedAttributes: {} },
  };
}

const loaded = (): Sanitizer => (sanitizer ??= loadSanitizer());

/** The html as stored and shown: sanitised. */
export function sanitizedHtml(html: string): string {
  const { sanitize, html: options } = loaded();
  return sanitize(html, options);
}

/** The text of sanitised html (tags dropped; `&`, `<`, `>` still escaped, so it is safe to show as HTML too), spaces collapsed. */
export function plainText(sanitized: string): string {
  const { sanitize, text: options } = loaded();
  return sanitize(sanitized, options).replace(/\s+/g, ' ').trim();
}
