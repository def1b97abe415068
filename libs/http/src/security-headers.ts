import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

type HeaderStep = { set: string; value: string } | { remove: string };

/**
 * helmet's headers, computed once. With options that do not depend on the request (no CSP nonce
 * functions; ours are the defaults) helmet sets the same headers on every response, through a chain
 * of twelve middlewares: they are recorded from helmet itself at start-up and replayed in one step.
 * `extra` headers (e.g. an API version) are set after them, as a middleware after helmet would.
 */
export function securityHeaders(options: Readonly<HelmetOptions> = {}, extra: Record<string, string> = {}): RequestHandler {
  if (hasFunction(options)) throw new Error('securityHeaders: helmet options with functions (per-request values such as CSP nonces) cannot be set once; use helmet() itself');
  const steps: HeaderStep[] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') throw new Error(`securityHeaders: helmet set ${name} to a non-string value`);
      steps.push({ set: name, value });
    },
    removeHeader(name: string) {
      steps.push({ remove: name });
    },
  };
  let finished = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    finished = true;
  });
  // a helmet option that waited on the request would leave the chain unfinished here
  if (!finished) throw new Error('securityHeaders: helmet did not set its headers synchronously');
  for (const [name, value] of Object.entries(extra)) steps.push({ set: name, value });

  return (_req, res, next) => {
    for (const step of steps) {
      if ('set' in step) res.setHeader(step.set, step.value);
      else res.removeHeader(step.remove);
    }
    next();
  };
}

function hasFunction(value: unknown): boolean {
  if (typeof value === 'function') return true;
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(hasFunction);
}
