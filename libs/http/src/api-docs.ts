import { createHash } from 'node:crypto';
import path from 'node:path';
import express, { type Router } from 'express';

/*
 * The API docs page: Swagger UI from the npm package swagger-ui-dist, served by the app itself from
 * node_modules (no CDN, nothing downloaded at build or run time). Swagger UI is the viewer whose
 * "Try it out" sends requests with HTTP Basic and Bearer credentials from the browser, and whose
 * dist needs no network at all. The bundle keeps `swagger-ui-dist` external and lists it in the
 * package.json `nx build` writes, so the Docker image installs it like any runtime dependency.
 */
// Plain requires: the package ships no types, and Nx lists what a bundle requires in its package.json.
const swaggerUiDir = (require('swagger-ui-dist/absolute-path.js') as () => string)();
const { version } = require('swagger-ui-dist/package.json') as { version: string };

export const DOCS_PATH = '/docs';
/** The viewer's version is in its assets' path, so they can be cached for good. */
export const DOCS_ASSETS = `${DOCS_PATH}/assets/${version}`;

/** The only files of the package the page loads; any other path under /docs is a 404. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'swagger-ui-bundle.js',
  'swagger-ui.css': 'swagger-ui.css',
  'favicon.png': 'favicon-32x32.png',
};

/**
 * Only our origin: scripts, styles, fonts and `fetch` (the document and "Try it out") from self;
 * images from self or `data:` URIs (the viewer's icons are inline SVG in its CSS). No framing.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — API docs</title>
<link rel="icon" type="image/png" href="${DOCS_ASSETS}/favicon.png">
<link rel="stylesheet" href="${DOCS_ASSETS}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_ASSETS}/swagger-ui-bundle.js"></script>
<script src="${DOCS_ASSETS}/${INIT_FILE}"></script>
</body>
</html>
`;
}

/** Swagger UI's settings: this service's document, no call to the public validator, no top bar. */
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  layout: 'BaseLayout',
  presets: [SwaggerUIBundle.presets.apis],
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  persistAuthorization: false,
});
`;

/** Named by its content, so a changed script is a new URL and every asset can be cached for good. */
const INIT_FILE = `init-${createHash('sha256').update(INIT_SCRIPT).digest('hex').slice(0, 12)}.js`;
const FOREVER = { maxAge: '365d', immutable: true };

/**
 * Mount at DOCS_PATH (`app.use(DOCS_PATH, apiDocs(title))`): other requests cost one prefix test.
 * `GET /docs`: the page (HTML, its own CSP), and `/docs/assets/<version>/…`: its static files with
 * long-lived caching. Reads nothing per request but the file asked for; no database, no credentials.
 */
export function apiDocs(title: string): Router {
  const html = page(title);
  const router = express.Router({ caseSensitive: true, strict: false });
  const assets = DOCS_ASSETS.slice(DOCS_PATH.length);
  router.get('/', (_req, res) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(html);
  });
  router.get(`${assets}/${INIT_FILE}`, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.type('js').send(INIT_SCRIPT);
  });
  router.get(`${assets}/:file`, (req, res, next) => {
    const file = Object.hasOwn(ASSETS, req.params.file) ? ASSETS[req.params.file] : undefined;
    if (!file) return next();
    res.sendFile(path.join(swaggerUiDir, file), FOREVER, (err) => {
      if (err && !res.headersSent) next(err);
    });
  });
  return router;
}
