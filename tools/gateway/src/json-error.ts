import type { ServerResponse } from 'node:http';

/** Answers with the gateway's error body `{"error":{"code","message"}}`, unless the response can no longer take one. */
export function sendJsonError(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.destroyed || res.writableEnded) return;
  if (res.headersSent) {
    // Part of an upstream answer already went out: cutting the connection is the only honest signal left.
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}
