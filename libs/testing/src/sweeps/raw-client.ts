import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RawRequest {
  method: string;
  /** Path and query exactly as sent on the request line (may hold malformed percent-encoding). */
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** The app listening on a loopback port, for requests that supertest would clean up or refuse. */
export async function listenLoopback(app: Express): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** Sends one request as given and reads the whole answer. */
export function sendRaw(port: number, req: RawRequest, via: http.Agent = agent): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const body = req.body === undefined ? undefined : Buffer.from(req.body);
    const headers = { ...req.headers, ...(body && { 'Content-Length': String(body.length) }) };
    const outgoing = http.request({ host: '127.0.0.1', port, method: req.method.toUpperCase(), path: req.url, headers, agent: via }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * A GET on a connection of its own (no keep-alive agent, so nothing holds a server's shutdown up),
 * with the path exactly as given; resolves with the status and the body text, rejects on a
 * connection error (ECONNREFUSED once a server has closed).
 */
export function getOnFreshConnection(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** `GET /x?y` style label for failure messages. */
export const describeRequest = (req: RawRequest) =>
  `${req.method.toUpperCase()} ${req.url.slice(0, 200)} ${JSON.stringify(req.headers).slice(0, 200)} body=${req.body === undefined ? '-' : String(req.body).slice(0, 200)}`;
