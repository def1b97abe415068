import { performance } from 'node:perf_hooks';
import { parse } from 'node:url';
import { createServer, type ClientRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import httpProxy from 'http-proxy';
import { INTERNAL_PATHS, isProbeTarget, serviceForHost, type ServiceEntry } from '@lib/services';
import { sendJsonError } from './json-error';

export interface GatewayOptions {
  services: readonly ServiceEntry[];
  /** Hosts are `<subdomain>.<domain>`, e.g. `articles.localhost`. */
  domain: string;
  /** Where a service is reached, e.g. `http://127.0.0.1:3002` locally or `http://articles-api:3000` under compose. */
  resolveTarget(service: ServiceEntry): string;
  /** Told about upstream failures (the client only gets a 502). */
  onProxyError?(service: ServiceEntry, err: NodeJS.ErrnoException): void;
  /** Told about every request once its response is done or the client went away (the access log). */
  onRequestDone?(line: AccessLine): void;
}

/** One request through the gateway, as the access log has it. */
export interface AccessLine {
  method: string;
  host: string;
  /** Without the query (it may carry an access token), at most 200 characters. */
  path: string;
  /** 0 when the client went away before an answer. */
  status: number;
  ms: number;
  /** The service the request was sent to; absent when the gateway answered itself (unknown host, internal path). */
  upstream?: string;
  aborted?: true;
}

const PATH_MAX = 200;
const started = Symbol('gatewayRequestStarted');
const upstreamOf = Symbol('gatewayUpstream');
const reportTo = Symbol('gatewayAccessLog');

interface Logged {
  [started]: number;
  [upstreamOf]?: string;
  [reportTo]: (line: AccessLine) => void;
  req: IncomingMessage;
}

// One shared listener, `this` being the response: no closure per request.
function accessLine(this: ServerResponse & Logged) {
  const { req } = this;
  const line: AccessLine = {
    method: req.method ?? '',
    host: req.headers.host ?? '',
    path: (req.url ?? '').split('?')[0].slice(0, PATH_MAX),
    status: this.headersSent ? this.statusCode : 0,
    ms: Math.round((performance.now() - this[started]) * 10) / 10,
  };
  if (this[upstreamOf] !== undefined) line.upstream = this[upstreamOf];
  if (!this.writableFinished) line.aborted = true;
  this[reportTo](line);
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EADDRNOTAVAIL']);

/** The client's address as nginx's `$remote_addr` has it: an IPv4 client without its `::ffff:` prefix. */
const clientAddress = (address = '') => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

/**
 * The local stand-in for the ingress: routes each request by its Host header to the service's
 * target. Like ingress-nginx, it sets X-Forwarded-For to the address it saw and X-Forwarded-Proto,
 * -Port and -Host to its own view, replacing whatever the client sent (the services trust the
 * gateway, TRUST_PROXY=loopback under npm start, so a client cannot choose its address). Returns a server that is not listening yet.
 */
export function createGateway(options: GatewayOptions): Server {
  const { services, domain, resolveTarget, onProxyError, onRequestDone } = options;
  const knownHosts = services.map((s) => `${s.subdomain}.${domain}`.toLowerCase()).join(', ');
  const proxy = httpProxy.createProxyServer({ xfwd: false });
  const internalPaths = `${INTERNAL_PATHS.slice(0, -1).join(', ')} and ${INTERNAL_PATHS.at(-1)}`;

  // Set, not appended to (http-proxy's xfwd appends): what the client sent is not passed on.
  proxy.on('proxyReq', (proxyReq: ClientRequest, req: IncomingMessage) => {
    proxyReq.setHeader('X-Forwarded-For', clientAddress(req.socket.remoteAddress));
    proxyReq.setHeader('X-Forwarded-Proto', 'http');
    proxyReq.setHeader('X-Forwarded-Port', String(req.socket.localPort ?? ''));
    proxyReq.setHeader('X-Forwarded-Host', req.headers.host ?? '');
    proxyReq.removeHeader('Forwarded');
  });

  // http-proxy 1.18 listens for the request's 'aborted' event, which Node >= 16 no longer emits once
  // the body was read, so a client that hangs up would leave the upstream request running.
  proxy.on('proxyReq', (proxyReq: ClientRequest, _req: IncomingMessage, res: ServerResponse) => {
    res.once('close', () => {
      if (!res.writableFinished) proxyReq.destroy();
    });
  });

  // requireHostHeader off: a request without Host gets our 421, not Node's bare 400.
  return createServer({ requireHostHeader: false }, (req, res) => {
    if (onRequestDone) {
      const logged = res as ServerResponse & Logged;
      logged[started] = performance.now();
      logged[reportTo] = onRequestDone;
      res.on('close', accessLine);
    }
    const host = req.headers.host ?? '';
    const service = serviceForHost(host, domain, services);
    if (!service) {
      sendJsonError(res, 421, 'unknown_host', `No service for host "${host}"; known hosts: ${knownHosts}`);
      return;
    }
    // Every spelling that some hop would turn back into a probe path (see PROBE_PATH_RULE).
    // ...and the path http-proxy will send: it rebuilds it with url.parse, which turns `\` into `/`
    const target = req.url ?? '/';
    if (isProbeTarget(target) || isProbeTarget(parse(target).path ?? '/')) {
      sendJsonError(res, 404, 'not_routed', `${internalPaths} are internal paths (probes, metrics), not routed in any spelling: ask the service on its own port`);
      return;
    }
    (res as ServerResponse & Logged)[upstreamOf] = service.name;
    proxy.web(req, res, { target: resolveTarget(service) }, (err: NodeJS.ErrnoException) => {
      if (res.destroyed) return; // the client left; nothing to report
      onProxyError?.(service, err);
      const message = UNREACHABLE.has(err.code ?? '') ? `${service.name} is not reachable` : `${service.name} failed to answer`;
      sendJsonError(res, 502, 'bad_gateway', message);
    });
  });
}
