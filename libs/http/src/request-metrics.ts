/**
 * The request metrics: `http_request_duration_seconds` (histogram) and `http_requests_total`
 * (counter), labelled by method, route template (`unmatched` when no route took the request, so a
 * scan of random URLs adds one series, not thousands) and status.
 *
 * Kept here rather than in prom-client's Histogram: its `observe` validates and hashes the label
 * object on every call (about 2.7 µs here, twice that with a counter beside it). One series per
 * route, method and status is found with two Map lookups on values the request already has (the
 * route template string, a number), and both metrics are read from it when scraped. The objects
 * below have the shape prom-client's registry reads (`name`, `help`, `type`, `get()`).
 */

/** Upper bounds in seconds: from a cache hit (a few ms) to the 10 s of a slow full page. */
export const DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const UNMATCHED_ROUTE = 'unmatched';

interface Series {
  method: string;
  route: string;
  status: string;
  /** Per bucket (not cumulative), the last one for values above every bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** HTTP methods get small numbers, so that status and method make one number key. */
const methodNumbers = new Map<string, number>();
const methodNumber = (method: string) => {
  let n = methodNumbers.get(method);
  if (n === undefined) methodNumbers.set(method, (n = methodNumbers.size));
  return n;
};

const byRoute = new Map<string, Map<number, Series>>();

function seriesOf(method: string, route: string, status: number): Series {
  let byKey = byRoute.get(route);
  if (!byKey) byRoute.set(route, (byKey = new Map()));
  const key = status * 64 + methodNumber(method);
  let series = byKey.get(key);
  if (!series) {
    series = { method, route, status: String(status), buckets: new Float64Array(DURATION_BUCKETS.length + 1), sum: 0, count: 0 };
    byKey.set(key, series);
  }
  return series;
}

/** Counts one answered request: `route` is the matched route's template, undefined when none matched. */
export function observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
  const series = seriesOf(method, route ?? UNMATCHED_ROUTE, status);
  let bucket = 0;
  while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]) bucket++;
  series.buckets[bucket]++;
  series.sum += seconds;
  series.count++;
}

function* allSeries(): Generator<Series> {
  for (const byKey of byRoute.values()) yield* byKey.values();
}

const labelsOf = (s: Series) => ({ method: s.method, route: s.route, status: s.status });

const histogram = {
  name: 'http_request_duration_seconds',
  help: 'Time from the request reaching the app to its response ending, by method, route template and status',
  type: 'histogram',
  aggregator: 'sum',
  get() {
    const values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }> = [];
    for (const s of allSeries()) {
      const labels = labelsOf(s);
      let cumulative = 0;
      DURATION_BUCKETS.forEach((le, i) => {
        cumulative += s.buckets[i];
        values.push({ metricName: `${histogram.name}_bucket`, labels: { ...labels, le }, value: cumulative });
      });
      values.push({ metricName: `${histogram.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: s.count });
      values.push({ metricName: `${histogram.name}_sum`, labels, value: s.sum });
      values.push({ metricName: `${histogram.name}_count`, labels, value: s.count });
    }
    return { name: histogram.name, help: histogram.help, type: histogram.type, aggregator: histogram.aggregator, values };
  },
  reset: () => byRoute.clear(),
};

const counter = {
  name: 'http_requests_total',
  help: 'Requests answered, by method, route template and status',
  type: 'counter',
  aggregator: 'sum',
  get() {
    const values = [...allSeries()].map((s) => ({ labels: labelsOf(s), value: s.count }));
    return { name: counter.name, help: counter.help, type: counter.type, aggregator: counter.aggregator, values };
  },
  reset: () => byRoute.clear(),
};

/** The two metrics, registered by ./metrics. */
export const requestMetrics = { histogram, counter } as const;
