import { nowSeconds } from '../input/epoch';
import type { AccountScope } from '../store/account-scope';
import type { WebhookDoc, WebhookSecret } from './webhook.model';

/** Secrets kept per webhook: the current one and the rotated-out ones still in their window. */
export const MAX_SECRETS = 3;

export type WebhookChanges = Partial<Pick<WebhookDoc, 'url' | 'events' | 'description' | 'enabled'>>;
/** What the subscription cache keeps of an enabled webhook. */
export type Subscription = Pick<WebhookDoc, '_id' | 'events'>;

/** The webhooks of one account (the management API's, the subscription cache's). */
export function webhookRepository(scope: AccountScope<WebhookDoc>) {
  return {
    /** The account's enabled webhooks and what they subscribe to. */
    subscriptions: (): Promise<Subscription[]> => scope.find<Subscription>({ enabled: true }, { events: 1 }),

    count: () => scope.count(),

    create: (fields: Pick<WebhookDoc, 'url' | 'events' | 'description'>, secret: string): Promise<WebhookDoc> => {
      const now = nowSeconds();
      return scope.insert((_id) => ({
        _id,
        ...fields,
        secrets: [{ key: secret, created_at: new Date(), expires_at: null }],
        enabled: true,
        rev: 0,
        disabled_reason: null,
        disabled_at: null,
        created_time: now,
        updated_time: now,
      }));
    },

    /** The account's webhooks by id, after `afterId`, `limit` at most. */
    list: (limit: number, afterId?: number) => scope.driverFind<WebhookDoc>(afterId === undefined ? {} : { _id: { $gt: afterId } }, { sort: { _id: 1 }, limit }),

    get: (id: number) => scope.get(id),

    /** Applies the changes; enabling clears the disabled reason. The webhook after, or null. */
    update(id: number, changes: WebhookChanges): Promise<WebhookDoc | null> {
      const enabling = changes.enabled === true ? { disabled_reason: null, disabled_at: null } : {};
      const disabling = changes.enabled === false ? { disabled_reason: null, disabled_at: new Date() } : {};
      return scope.findOneAndUpdate({ _id: id }, { $set: { ...changes, ...enabling, ...disabling, updated_time: nowSeconds() } }, 'after');
    },

    remove: async (id: number) => (await scope.deleteOne({ _id: id })).deletedCount === 1,

    /**
     * Makes `secret` the current one; the previous ones sign on until `windowEnd` (or their own
     * earlier end), and those whose window is over are dropped. The webhook after, or null. Of two
     * rotations at once, the second reads again and keeps the first's secret in its window.
     */
    rotate: (id: number, secret: string, windowEnd: Date): Promise<WebhookDoc | null> =>
      scope.updateByRevision<WebhookDoc>(id, (current) => {
        const now = Date.now();
        const previous: WebhookSecret[] = current.secrets
          .filter((s) => s.expires_at === null || s.expires_at.getTime() > now)
          .map((s) => ({ key: s.key, created_at: s.created_at, expires_at: s.expires_at && s.expires_at < windowEnd ? s.expires_at : windowEnd }));
        return { secrets: [...previous, { key: secret, created_at: new Date(now), expires_at: null }].slice(-MAX_SECRETS), updated_time: nowSeconds() };
      }),
  };
}

export type WebhookRepository = ReturnType<typeof webhookRepository>;
