import ipaddr from 'ipaddr.js';
import { z } from '@lib/validation';
import { effectiveAddress, type IpAddress } from './address-ranges';

/**
 * Deliberate exceptions to the outbound rules (FEED_ALLOWED_HOSTS, WEBHOOK_ALLOWED_HOSTS): host
 * names, addresses and CIDR blocks that may be reached although they are loopback or private, and
 * over plain http.
 */
export interface AllowedHosts {
  /** The variable it was read from, named in refusals ("…or add it to FEED_ALLOWED_HOSTS"). */
  variable: string;
  /** Host names, lower-case, without a trailing dot: the name in the URL must be one of them. */
  names: string[];
  /** Addresses (as /32 or /128) and CIDR blocks: the address connected to must be in one. */
  blocks: string[];
}

// RFC 1123 labels; the last label has a letter, so "10.0.0" is never taken for a name
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const isHostName = (name: string) => name.length <= 253 && name.split('.').every((label) => LABEL.test(label)) && /[a-z_]/.test(name.split('.').at(-1) ?? '');

function isCidr(entry: string): boolean {
  if (!ipaddr.isValidCIDR(entry)) return false;
  return entry.includes(':') || ipaddr.IPv4.isValidCIDRFourPartDecimal(entry);
}
const isAddress = (entry: string) => ipaddr.IPv6.isValid(entry) || ipaddr.IPv4.isValidFourPartDecimal(entry);

/** The list's entries and what is wrong with each bad one (a message naming the entry). */
export function readAllowedHosts(text: string, variable: string): { allowed: AllowedHosts; problems: string[] } {
  const allowed: AllowedHosts = { variable, names: [], blocks: [] };
  const problems: string[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (isCidr(entry)) allowed.blocks.push(entry);
    else if (isAddress(entry)) allowed.blocks.push(`${entry}/${entry.includes(':') ? 128 : 32}`);
    else if (isHostName(entry.replace(/\.$/, ''))) allowed.names.push(entry.replace(/\.$/, ''));
    else problems.push(`"${raw.trim().slice(0, 100)}" is not a host name, an IP address or a CIDR block (such as feeds.internal, 10.0.0.7 or 10.1.0.0/16; no scheme or port)`);
  }
  return { allowed, problems };
}

/** Parses an allow-list; a bad entry throws an Error naming the variable and the entry. */
export function allowedHosts(text: string | readonly string[], variable: string): AllowedHosts {
  const { allowed, problems } = readAllowedHosts(typeof text === 'string' ? text : text.join(','), variable);
  if (problems.length) throw new Error(`Invalid configuration:\n${problems.map((p) => `  ${variable}: ${p}`).join('\n')}`);
  return allowed;
}

/**
 * The env field of an allow-list: comma-separated host names, addresses or CIDR blocks, empty by
 * default; a bad entry stops the process at start naming it (with the other config problems).
 */
export function allowedHostsSetting(variable: string) {
  return z
    .string()
    .default('')
    .transform((text, ctx) => {
      const { allowed, problems } = readAllowedHosts(text, variable);
      for (const message of problems) ctx.addIssue({ code: 'custom', message });
      return allowed;
    });
}

export const allowsName = (allowed: AllowedHosts, host: string) => allowed.names.includes(host.toLowerCase().replace(/\.$/, ''));

/** Whether the address (IPv4-mapped and NAT64 forms as their IPv4 address) is in one of the list's blocks. */
export function allowsAddress(allowed: AllowedHosts, address: IpAddress): boolean {
  const candidates = [address, effectiveAddress(address)];
  return allowed.blocks.some((block) => {
    const range = ipaddr.parseCIDR(block);
    return candidates.some((candidate) => candidate.kind() === range[0].kind() && candidate.match(range));
  });
}
