import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { GATEWAY, SERVICES, SERVICE_NODE_FLAGS, TRUST_PROXY_ENV, bindAddressOf, localPort, type ServiceEntry } from '@lib/services';

export interface LaunchItem {
  name: string;
  /** Absolute path of the built entry point. */
  script: string;
  /** Flags for `node`, before the script: the same heap settings as the production image. */
  nodeArgs: string[];
  port: number;
  /** Polled until it answers; `anyStatus` when any HTTP answer means ready (the gateway has no /readyz). */
  ready: { url: string; anyStatus: boolean };
  /** Extra env for this child, on top of the runner's env. */
  env: Record<string, string>;
  urls: string[];
}

export interface LaunchPlan {
  apps: LaunchItem[];
  gateway?: LaunchItem;
  /** Built entry points that are missing, as warnings. */
  missing: string[];
  services: ServiceEntry[];
}

export interface PlanOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  services?: readonly ServiceEntry[];
  exists?: (file: string) => boolean;
}

const NODE_ARGS = ['--enable-source-maps', ...SERVICE_NODE_FLAGS];

/** A host as written in a URL: an IPv6 address in brackets. */
const urlHost = (host: string) => (isIP(host) === 6 ? `[${host}]` : host);

function hostUrl(host: string, port: number): string {
  return port === 80 ? `http://${urlHost(host)}` : `http://${urlHost(host)}:${port}`;
}

const WILDCARDS = new Set(['0.0.0.0', '::']);

/**
 * Where the processes listen and how they reach each other, from BIND_ADDRESS: unset, loopback (the
 * default); `0.0.0.0` or `::`, every interface, still reached on loopback; one address of this
 * machine, reached there. The apps trust X-Forwarded-For from the gateway only: from loopback, and
 * from that address when the gateway connects from it (TRUST_PROXY, unless set).
 */
function network(env: NodeJS.ProcessEnv): { reach: string; shown: string; appEnv: Record<string, string>; gatewayEnv: Record<string, string> } {
  const bind = bindAddressOf(env);
  const own = bind !== undefined && !WILDCARDS.has(bind) && !/^127\.|^::1$/.test(bind) ? bind : undefined;
  return {
    /** The host the runner polls and the gateway targets. */
    reach: own ?? '127.0.0.1',
    /** The host shown in the URLs printed at start. */
    shown: own ?? 'localhost',
    appEnv: env[TRUST_PROXY_ENV] ? {} : { [TRUST_PROXY_ENV]: own ? `loopback, ${own}` : 'loopback' },
    gatewayEnv: own && !env[GATEWAY.targetEnv] ? { [GATEWAY.targetEnv]: `http://${urlHost(own)}:{port}` } : {},
  };
}

/** What `npm start` runs: every built app on its local port, then the gateway. Throws on bad or clashing ports. */
export function planLaunch({ root, env, services = SERVICES, exists = existsSync }: PlanOptions): LaunchPlan {
  const gatewayPort = localPort(GATEWAY, env);
  const net = network(env);
  const domain = env[GATEWAY.domainEnv] || GATEWAY.defaultDomain;
  const plan: LaunchPlan = { apps: [], missing: [], services: [] };
  const portOwners = new Map<number, string>([[gatewayPort, `gateway (${GATEWAY.portEnv})`]]);

  for (const service of services) {
    const port = localPort(service, env);
    const owner = portOwners.get(port);
    if (owner) throw new Error(`${service.name} (${service.portEnv}) and ${owner} both want port ${port}`);
    portOwners.set(port, `${service.name} (${service.portEnv})`);

    const relative = path.join('dist', 'apps', service.name, 'main.js');
    const script = path.join(root, relative);
    const project = path.join('apps', service.name, 'project.json');
    if (!exists(path.join(root, project))) {
      // A row may land in the service table before its app does (apps are built on separate branches).
      plan.missing.push(`${service.name} has no project yet (${project} is missing): skipping it`);
      continue;
    }
    if (!exists(script)) {
      plan.missing.push(`${service.name} is not built (${relative} is missing): skipping it; build with npx nx build ${service.name}`);
      continue;
    }
    plan.services.push(service);
    plan.apps.push({
      name: service.name,
      script,
      nodeArgs: NODE_ARGS,
      port,
      ready: { url: `${hostUrl(net.reach, port)}/readyz`, anyStatus: false },
      env: { PORT: String(port), ...net.appEnv },
      urls: [hostUrl(net.shown, port), hostUrl(`${service.subdomain}.${domain}`, gatewayPort)],
    });
  }

  const gatewayRelative = path.join('dist', 'tools', 'gateway', 'main.js');
  const gatewayScript = path.join(root, gatewayRelative);
  if (exists(gatewayScript)) {
    plan.gateway = {
      name: 'gateway',
      script: gatewayScript,
      nodeArgs: NODE_ARGS,
      port: gatewayPort,
      ready: { url: `${hostUrl(net.reach, gatewayPort)}/`, anyStatus: true },
      env: net.gatewayEnv,
      urls: [hostUrl(net.shown, gatewayPort)],
    };
  } else {
    plan.missing.push(`the gateway is not built (${gatewayRelative} is missing): skipping it; build with npx nx build gateway`);
  }
  return plan;
}

/** `articles-api  http://localhost:3002  http://articles.localhost:8080`, names aligned. */
export function summaryLines(items: LaunchItem[]): string[] {
  const width = Math.max(0, ...items.map((item) => item.name.length));
  return items.map((item) => [item.name.padEnd(width), ...item.urls].join('  '));
}
