const TRACKING = /^(utm_.*|fbclid|gclid|mc_cid|mc_eid|ocid|cmpid|rss|sc_cid)$/i;

/**
 * The key that deduplicates articles: an absolute http(s) URL with the host lower-cased, and no
 * fragment, default port, or tracking parameters (utm_*, fbclid, …). Null for anything else.
 */
export function canonicalUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  url.username = '';
  url.password = '';
  for (const key of [...url.searchParams.keys()]) if (TRACKING.test(key)) url.searchParams.delete(key);
  url.search = url.searchParams.toString() ? `?${url.searchParams.toString()}` : '';
  const text = url.toString();
  return text.length <= 2048 ? text : null;
}
