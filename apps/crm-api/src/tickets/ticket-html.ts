import sanitizeHtml from 'sanitize-html';

/**
 * Ticket messages are HTML from outside (a requester's email, an agent's client): never stored as
 * sent. sanitize-html keeps its default allow-list (text formatting, lists, tables, links; no
 * script, style, iframe, form, image or event attribute) and only http, https, ftp, mailto and tel
 * links.
 */
const HTML_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: sanitizeHtml.defaults.allowedTags,
  allowedAttributes: { a: ['href', 'name', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'ftp', 'mailto', 'tel'],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }) },
};
const TEXT_OPTIONS: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {} };

/** The html as stored and shown: sanitised. */
export const sanitizedHtml = (html: string) => sanitizeHtml(html, HTML_OPTIONS);

/** The text of sanitised html (tags dropped; `&`, `<`, `>` still escaped, so it is safe to show as HTML too), spaces collapsed. */
export const plainText = (sanitized: string) => sanitizeHtml(sanitized, TEXT_OPTIONS).replace(/\s+/g, ' ').trim();
