import type { OutboundPolicy } from '@lib/outbound';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-schedule';

const DAY_MS = 24 * 3600_000;

/** Limits per account, each with its own error. */
export interface WebhookLimits {
  /** Webhooks one account may have. */
  webhooksPerAccount: number;
  /** Pending deliveries of one account past which tests and replays are refused (events of changes are still recorded: the outbox cap bounds them). */
  pendingPerAccount: number;
  /**
   * Pending deliveries of one webhook: a receiver down for days reaches it, and the webhook is then
   * disabled (its pending deliveries cancelled). Checked after each recording at most once a second
   * per process, so the outbox may pass it by what the account writes in about a second.
   */
  outboxCap: number;
}

export const DEFAULT_WEBHOOK_LIMITS: WebhookLimits = { webhooksPerAccount: 20, pendingPerAccount: 50_000, outboxCap: 10_000 };

/** How deliveries are made; everything but `policy` has a default (DEFAULT_DELIVERY_SETTINGS). */
export interface DeliverySettings {
  /** The outbound guard (WEBHOOK_ALLOWED_HOSTS; plain http to public addresses only with NODE_ENV=development). */
  policy: OutboundPolicy;
  /** How often an idle worker looks for due deliveries (WEBHOOK_POLL_MS); a delivery recorded in this process wakes it at once. */
  pollMs: number;
  /** Deliveries one replica sends at the same time (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** How long a claimed partition stays claimed without renewal (WEBHOOK_LEASE_MS): a replica killed mid-delivery delays that delivery this long at most. */
  leaseMs: number;
  retry: RetryPolicy;
  /** One attempt: connection, request and answer. */
  timeoutMs: number;
  /** Bytes of an answer read at most. */
  maxResponseBytes: number;
  /** Bytes of an answer kept in the delivery log. */
  storedResponseBytes: number;
  /** How long ended deliveries are kept (then the TTL index deletes them). */
  retentionMs: number;
  /** How long a rotated-out secret still signs. */
  rotationWindowMs: number;
  limits: WebhookLimits;
}

export const DEFAULT_DELIVERY_SETTINGS: Omit<DeliverySettings, 'policy'> = {
  pollMs: 500,
  concurrency: 8,
  leaseMs: 30_000,
  retry: DEFAULT_RETRY_POLICY,
  timeoutMs: 10_000,
  maxResponseBytes: 64 * 1024,
  storedResponseBytes: 1024,
  retentionMs: 7 * DAY_MS,
  rotationWindowMs: DAY_MS,
  limits: DEFAULT_WEBHOOK_LIMITS,
};

/** Partitions of one webhook's deliveries: one lease each, so at most this many of its deliveries are in flight across the cluster. */
export const PARTITIONS_PER_WEBHOOK = 16;
/** Attempts kept in a delivery's log (its `attempts` counts them all). */
export const MAX_LOGGED_ATTEMPTS = 20;
