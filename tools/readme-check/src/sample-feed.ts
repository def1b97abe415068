const item = (title: string, summary: string, slug: string, date: Date) => `
    <item>
      <title>${title}</title>
      <link>https://news.example.test/${slug}</link>
      <description>${summary}</description>
      <pubDate>${date.toUTCString()}</pubDate>
    </item>`;

/** A small RSS feed about ASX companies (or none with `withItems` false), dated just before `now`. */
export function sampleFeed(now: Date, withItems = true): string {
  const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>Sample News: Business</title>
    <link>https://news.example.test/</link>
    <description>Sample business news</description>${[
      item('BHP lifts iron ore output', 'The miner (ASX: BHP) shipped more iron ore from the Pilbara.', 'bhp-iron-ore', hoursAgo(1)),
      item('Rio Tinto iron ore shipments steady', 'Rio Tinto (ASX: RIO) kept its iron ore guidance.', 'rio-iron-ore', hoursAgo(2)),
      item('Commonwealth Bank reports a record profit', 'CommBank (ASX: CBA) beat forecasts.', 'cba-profit', hoursAgo(3)),
    ]
      .filter(() => withItems)
      .join('')}
  </channel>
</rss>
`;
}
