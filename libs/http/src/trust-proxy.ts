import { parseTrustedProxies, type TrustedProxies } from '@lib/services';
import type { Express } from 'express';

/**
 * Sets whom the app believes about the client's address (`req.ip`: the sign-in limits, the logs):
 * Express walks from the socket's peer outwards through X-Forwarded-For while `trusted` trusts the
 * hop, and the client is the first hop it does not. buildServiceApp starts with nobody trusted (the
 * socket's peer is the client); runService applies TRUST_PROXY (libs/services network-settings.ts).
 * The local gateway and ingress-nginx set X-Forwarded-For to the address they saw; Envoy appends it.
 */
export function trustProxies(app: Express, trusted: TrustedProxies = parseTrustedProxies(undefined)): void {
  app.set('trust proxy', (address: string, hop: number) => trusted.trusts(address, hop));
}
