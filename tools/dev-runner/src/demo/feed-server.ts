import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface FeedServer {
  /** The URL of each feed file, by file name. */
  urls: Map<string, string>;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { '.rss': 'application/rss+xml', '.atom': 'application/atom+xml', '.xml': 'application/xml' };

/**
 * Serves the sample feeds of `dir` (`*.rss`, `*.atom`, `*.xml`, read once) on 127.0.0.1, so the demo
 * news-api syncs real RSS/Atom over HTTP with no network. Any other path is a 404.
 */
export async function startFeedServer(dir: string): Promise<FeedServer> {
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const name of readdirSync(dir).sort()) {
    const type = TYPES[path.extname(name)];
    if (type) files.set(`/${name}`, { body: readFileSync(path.join(dir, name)), type });
  }
  if (files.size === 0) throw new Error(`no feed (*.rss, *.atom, *.xml) in ${dir}`);
  const server = http.createServer((req, res) => {
    const file = req.method === 'GET' ? files.get(req.url ?? '') : undefined;
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'Content-Type': file.type, 'Content-Length': file.body.length }).end(file.body);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    urls: new Map([...files.keys()].map((file) => [file.slice(1), `http://127.0.0.1:${port}${file}`])),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
