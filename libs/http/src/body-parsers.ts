import { hasBody } from '@lib/routing';
import { assertJsonWithinBounds, XML_MEDIA_TYPES } from '@lib/validation';
import express, { type RequestHandler } from 'express';

export interface BodyLimits {
  /** Largest accepted body, in bytes or a size string such as '100kb'. */
  limit?: string | number;
}

/**
 * JSON and urlencoded-form parsers with a size limit. Forms are parsed flat (`extended: false`), so
 * `a[b]=1` stays a plain key instead of becoming a nested object; array fields of form calls are
 * JSON-array text, decoded by the route schema (`formArray`). XML is read as text here and parsed by
 * the route (`xmlInput`), which knows the schema the elements must fill; routes that take no XML
 * answer it 415.
 */
export function bodyParsers({ limit = '100kb' }: BodyLimits = {}): RequestHandler[] {
  return [
    // a large body of small values is refused before JSON.parse builds it (assertJsonWithinBounds)
    express.json({ limit, strict: true, type: ['application/json', 'application/*+json'], verify: (_req, _res, body) => assertJsonWithinBounds(body) }),
    express.urlencoded({ limit, extended: false, parameterLimit: 200 }),
    express.text({ limit, type: XML_MEDIA_TYPES }),
  ];
}

/**
 * For routes that take no body: reads and drops whatever body is sent, so that one over the limit
 * is a 413 there too instead of being streamed past unread.
 */
export function discardBody({ limit = '100kb' }: BodyLimits = {}): RequestHandler {
  const raw = express.raw({ limit, type: () => true });
  return (req, res, next) => {
    // nearly every such request has no body: no read, no callback made for it, and no req.body
    // property added (each property added to a request allocates; req.body is undefined already)
    if (!hasBody(req)) {
      next();
      return;
    }
    raw(req, res, (err?: unknown) => {
      req.body = undefined;
      next(err);
    });
  };
}
