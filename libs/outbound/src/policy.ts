import dns from 'node:dns';
import { counter } from '@lib/http';
import { nonPublicRange, parseAddress, type IpAddress } from './address-ranges';
import { allowsAddress, allowsName, type AllowedHosts } from './allowed-hosts';
import { OutboundError } from './outbound-error';

/** Resolves a host name to its addresses (the system resolver by default; tests inject their own). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true });

export interface OutboundPolicyOptions {
  /** Names the caller in the refusal metric: `feeds`, `webhooks`. */
  name: string;
  /** The deliberate exceptions (FEED_ALLOWED_HOSTS, WEBHOOK_ALLOWED_HOSTS); none by default. */
  allowed?: AllowedHosts;
  /** Plain http to public addresses too (development webhooks); private addresses stay refused. */
  allowHttp?: boolean;
  resolve?: Resolver;
  /** Certificate authorities trusted besides the system's (PEM): an internal CA, or a test's own. */
  ca?: string[];
}

export interface OutboundPolicy {
  readonly name: string;
  readonly allowed: AllowedHosts;
  readonly allowHttp: boolean;
  readonly resolve: Resolver;
  readonly ca?: string[];
}

/** The rules of one caller's outbound requests, built once from its configuration. */
export function outboundPolicy(options: OutboundPolicyOptions): OutboundPolicy {
  return {
    name: options.name,
    allowed: options.allowed ?? { variable: 'the allow-list', names: [], blocks: [] },
    allowHttp: options.allowHttp ?? false,
    resolve: options.resolve ?? systemResolver,
    ca: options.ca,
  };
}

const refusals = counter('outbound_refused_total', 'Outbound requests (feeds, webhooks) the guard refused, by caller and rule (plain_http, redirect_to_http, credentials_in_url, or the kind of address: private, loopback, cloud_metadata, …)', [
  'caller',
  'rule',
]);

/** Counts a refusal; the caller logs it (one line with the message). */
export function countRefusal(policy: OutboundPolicy, rule: string): void {
  refusals.inc({ caller: policy.name, rule });
}

export const refused = (message: string, rule: string, address?: string) => new OutboundError('refused', `refused: ${message}`, { rule, address });

/** A request's target as the guard judges it: its host, an address literal, and whether its name is on the allow-list. */
export interface Target {
  url: URL;
  /** The host without brackets or trailing dot, lower-case. */
  host: string;
  literal?: IpAddress;
  listedName: boolean;
}

export function targetOf(policy: OutboundPolicy, url: URL): Target {
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  return { url, host, literal: parseAddress(host), listedName: allowsName(policy.allowed, host) };
}

const hint = (policy: OutboundPolicy) => `list it in ${policy.allowed.variable} if it is a deliberate internal one`;

/**
 * Checks the addresses a target resolved to (or its address literal): each must be public or on
 * the allow-list (a listed name passes whatever it resolves to); plain http only when every
 * address is listed, or the policy allows plain http. Throws the refusal.
 */
export function vetAddresses(policy: OutboundPolicy, target: Target, addresses: IpAddress[]): void {
  const plainHttp = target.url.protocol === 'http:';
  for (const address of addresses) {
    const listed = target.listedName || allowsAddress(policy.allowed, address);
    if (listed) continue;
    const range = nonPublicRange(address);
    if (range) {
      const what = `${/^[aeiou]/.test(range) ? 'an' : 'a'} ${range} address`;
      throw refused(`${target.host} ${target.literal ? 'is' : 'resolves to'} ${what}; ${hint(policy)}`, ruleOf(range), address.toString());
    }
    if (plainHttp && !policy.allowHttp) throw refused(`plain http to ${target.host}: use https, or ${hint(policy)}`, 'plain_http');
  }
}

/** Before any lookup: plain http to a name that no allow-list entry can let through. */
export function vetScheme(policy: OutboundPolicy, target: Target): void {
  const couldBeListed = target.listedName || policy.allowed.blocks.length > 0;
  if (target.url.protocol === 'http:' && !policy.allowHttp && !couldBeListed) throw refused(`plain http to ${target.host}: use https, or ${hint(policy)}`, 'plain_http');
}

const ruleOf = (range: string) => range.toLowerCase().replace(/[^a-z]+/g, '_').replace(/^_|_$/g, '');
