import { revocableCache, type RevocationFeed } from '@lib/cache';
import type { AccountStore } from '../store/crm-store';
import type { Subscription } from './webhook.repository';

/**
 * How long an account's subscriptions are trusted without reading them again. A change (create,
 * update, delete, disable) is published to the revocation log: it takes effect at once in the
 * process that made it and within REVOCATION_BOUND_MS (1 s) in every other; so events are recorded
 * from at most 1 s after a webhook is created. This lifetime is the backstop for a change written
 * to the database by hand.
 */
export const SUBSCRIPTION_TTL_MS = 60_000;
const SCOPE = 'crm-webhook-subscriptions';
const MAX_ACCOUNTS = 50_000;

export interface SubscriptionCache {
  /** The account's enabled webhooks and their patterns (an empty list, cached too, when it has none). */
  of(store: AccountStore): Promise<readonly Subscription[]>;
  /** Forgets the account's subscriptions here and, through the revocation log, in every process. */
  revoke(account: number): Promise<void>;
}

/**
 * Which webhooks of each account listen, per process: a write of an account with no webhook asks
 * this cache and nothing else (no database command) before it runs as it would without webhooks.
 */
export function subscriptionCache(log?: RevocationFeed): SubscriptionCache {
  const follow = log && { log, scope: SCOPE, parseKey: Number };
  const cache = revocableCache<number, readonly Subscription[]>({ ttlMs: SUBSCRIPTION_TTL_MS, max: MAX_ACCOUNTS, follow });
  return {
    of: async (store) => (await cache.getOrLoad(store.account, () => store.webhooks.subscriptions())) ?? [],
    revoke: (account) => cache.revoke(account),
  };
}
