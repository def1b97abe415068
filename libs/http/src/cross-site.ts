import { HttpError } from '@lib/errors';
import type { AnyRoute } from '@lib/routing';
import type { Request, RequestHandler } from 'express';

/**
 * Methods that change something. A browser sends a POST cross-site without asking (an HTML form,
 * `fetch` with a form or text body), with the credentials it holds for the target: the Basic
 * credentials a user typed into its prompt, cookies. PUT, PATCH and DELETE need a preflight, which
 * no app of ours answers (no CORS), but they are refused alike: one rule for every write.
 */
const STATE_CHANGING = new Set(['post', 'put', 'patch', 'delete']);

export const changesState = (route: Pick<AnyRoute, 'method'>) => STATE_CHANGING.has(route.method);

/** `Sec-Fetch-Site` values that name another site or another origin of the same site. */
const FOREIGN_FETCH_SITES = new Set(['cross-site', 'same-site']);

/** The origin's host (`host[:port]`, the scheme's default port left out), or undefined when it has none (`null`, garbage). */
function originHost(origin: string): { scheme: string; host: string } | undefined {
  try {
    const url = new URL(origin);
    return url.host ? { scheme: url.protocol, host: url.host } : undefined;
  } catch {
    return undefined;
  }
}

/** `host` (a Host header) written as the origin's URL would write it: lower case, the scheme's default port left out. */
function asHostOf(scheme: string, host: string): string | undefined {
  try {
    return new URL(`${scheme}//${host}`).host;
  } catch {
    return undefined;
  }
}

/**
 * Why a browser sent this request from another site or origin, or undefined when nothing says so.
 * Browsers mark every request with `Sec-Fetch-Site` (Chrome 76+, Firefox 90+, Safari 16.4+) and
 * every non-GET with `Origin`; non-browser clients send neither (curl, the official clients), so
 * they are never refused. The request's own host is its `Host` header, and `X-Forwarded-Host` from
 * a trusted proxy (Express's `req.host`): the gateway, ingress-nginx and Envoy pass the public Host
 * on, so a page served by the app through any of them (`/docs`) is its own origin. Only the host
 * and port are compared, not the scheme: behind a TLS-terminating proxy the app sees http while the
 * browser's origin is https (a plain-http page of the same host is `Sec-Fetch-Site: cross-site`).
 */
export function crossSiteReason(req: Request): string | undefined {
  const fetchSite = req.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string' && FOREIGN_FETCH_SITES.has(fetchSite.trim().toLowerCase())) {
    return `Sec-Fetch-Site: ${fetchSite.trim().toLowerCase()}`;
  }
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  const from = originHost(origin);
  if (!from) return `Origin: ${origin.slice(0, 100)}`;
  const own = [req.headers.host, req.host].filter((host): host is string => Boolean(host)).map((host) => asHostOf(from.scheme, host));
  return own.includes(from.host) ? undefined : `Origin: ${origin.slice(0, 100)}`;
}

/**
 * Refuses (403 `cross_site_request`, in the app's error body) a request a browser sent from another
 * site or origin, before authentication runs or anything is read or written. buildServiceApp puts it
 * first on every state-changing route of every app.
 */
export const refuseCrossSite: RequestHandler = (req, _res, next) => {
  const reason = crossSiteReason(req);
  if (reason === undefined) return next();
  next(
    new HttpError(
      403,
      'cross_site_request',
      `Refused a write sent by a browser from another site or origin (${reason}): call this API from a server, a script or its own origin (/docs)`,
    ),
  );
};

/** The 403 a state-changing route documents (in OpenAPI) for refuseCrossSite. */
export const CROSS_SITE_DESCRIPTION = 'A browser sent the request from another site or origin (Sec-Fetch-Site cross-site or same-site, or a foreign Origin): refused before authentication';
