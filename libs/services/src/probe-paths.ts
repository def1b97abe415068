import { INTERNAL_PATHS } from './service-table';

/**
 * The public routing rule that keeps the probe paths (and `/metrics`: every INTERNAL_PATHS entry;
 * "probe path" below means any of them) out, as a regular expression matched at the
 * start of the normalised path, ignoring case: every path that begins with a probe path, whatever
 * follows (`/readyz/`, `/readyz\`, `/readyz;x`, `/READYZ`). The Ingress has it as its regex path
 * (ingress-nginx: `location ~* "^/(healthz|readyz|metrics)"`), and the local gateway applies the same test.
 * No app serves anything else under these names, so refusing the whole prefix costs nothing.
 */
export const PROBE_PATH_RULE = `/(${INTERNAL_PATHS.map((p) => p.slice(1)).join('|')})`;

const probeRule = new RegExp(`^${PROBE_PATH_RULE}`, 'i');

/**
 * The path a request target names, normalised the way nginx does before it picks a location:
 * the path of an absolute-form target (`http://host/readyz`), without the query, percent-escapes
 * decoded once, runs of slashes merged, and `.` and `..` segments resolved. Express and http-proxy
 * each undo some of these spellings (http-proxy merges slashes, Express ignores a trailing slash and
 * takes the path of an absolute URL), so a check on the raw target is not enough.
 */
export function normalizedPath(target: string): string {
  let path = target;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(path);
  if (absolute) path = path.slice(absolute[0].length) || '/';
  path = path.split('?')[0];
  if (!path.startsWith('/')) path = `/${path}`; // `*`, `*x`: http-proxy joins them to its target's `/`
  path = path.replace(/%([0-9a-f]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  path = path.replace(/\/{2,}/g, '/');
  const segments: string[] = [];
  for (const segment of path.split('/').slice(1)) {
    if (segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const last = path.split('/').at(-1);
  return `/${segments.join('/')}${(last === '.' || last === '..') && segments.length > 0 ? '/' : ''}`;
}

/** True when a request target reaches a probe path in any spelling (see PROBE_PATH_RULE). */
export function isProbeTarget(target: string): boolean {
  return probeRule.test(normalizedPath(target));
}
