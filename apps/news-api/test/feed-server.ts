import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** How the fixture server answers one path. */
export interface FeedReply {
  status?: number;
  /** A file of test/fixtures, or a literal body. */
  fixture?: string;
  body?: string;
  type?: string;
  /** More response headers (a redirect's Location). */
  headers?: Record<string, string>;
  /** Answer after this many milliseconds. */
  delayMs?: number;
  /** Never answer (a publisher that times out). */
  hang?: boolean;
  /** Stream this many bytes of padding inside an RSS document (a body over the size limit). */
  streamBytes?: number;
}

export const fixture = (name: string) => readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');

/**
 * A local HTTP server on 127.0.0.1 that plays the publishers: tests point feeds at it and change
 * its answers between syncs. Counts the requests per path.
 */
export async function startFeedServer() {
  const replies = new Map<string, FeedReply>();
  const hits = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const urlPath = req.url ?? '/';
    hits.set(urlPath, (hits.get(urlPath) ?? 0) + 1);
    const reply = replies.get(urlPath);
    if (!reply) return res.writeHead(404).end('no such feed');
    if (reply.hang) return void hanging.add(res);
    if (reply.delayMs) return void setTimeout(() => answer(res, reply), reply.delayMs);
    answer(res, reply);
  });
  const answer = (res: ServerResponse, reply: FeedReply) => {
    res.writeHead(reply.status ?? 200, { 'content-type': reply.type ?? 'application/rss+xml; charset=utf-8', ...reply.headers });
    if (reply.streamBytes) return streamPadding(res, reply.streamBytes);
    res.end(reply.body ?? (reply.fixture ? fixture(reply.fixture) : ''));
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (urlPath: string) => `http://127.0.0.1:${port}${urlPath}`,
    set: (urlPath: string, reply: FeedReply) => void replies.set(urlPath, reply),
    hits: (urlPath: string) => hits.get(urlPath) ?? 0,
    reset() {
      replies.clear();
      hits.clear();
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function streamPadding(res: ServerResponse, total: number) {
  res.write('<?xml version="1.0"?><rss version="2.0"><channel><title>Huge</title><description>');
  const chunk = 'x'.repeat(64 * 1024);
  let sent = 0;
  const pump = () => {
    while (sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end('</description></channel></rss>');
  };
  res.on('error', () => undefined);
  pump();
}

export type FeedServer = Awaited<ReturnType<typeof startFeedServer>>;
