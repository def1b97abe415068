import { insertWithSequenceId, timeOrderedIds } from '@lib/mongo';
import type { ClientSession, Connection } from 'mongoose';
import { deliveryModel, eventSequenceModel } from './webhook-delivery.model';
import { webhookModel, type WebhookDoc, type WebhookSecret } from './webhook.model';

/** Registers the webhook models on the connection (so start-up creates their collections and indexes). */
export function registerWebhookModels(connection: Connection): void {
  webhookModel(connection);
  deliveryModel(connection);
  eventSequenceModel(connection);
}

/** Secrets kept per webhook: the current one and the rotated-out ones still in their window. */
export const MAX_SECRETS = 3;

export type WebhookChanges = Partial<Pick<WebhookDoc, 'url' | 'events' | 'description' | 'enabled'>>;
/** What the subscription cache keeps of an enabled webhook. */
export type Subscription = Pick<WebhookDoc, '_id' | 'events'>;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The webhooks collection. Functions taking an account reach only that account's webhooks (the
 * management API's); `byId` and `disable` take a webhook id alone: the delivery worker serves every
 * account.
 */
export function webhookRepository(connection: Connection) {
  const Webhook = webhookModel(connection);
  const mine = (account: number, id: number) => ({ _id: id, account });

  return {
    /** The account's enabled webhooks and what they subscribe to. */
    subscriptions: (account: number): Promise<Subscription[]> => Webhook.find({ account, enabled: true }, { events: 1 }).lean<Subscription[]>(),

    count: (account: number, session?: ClientSession) => Webhook.countDocuments({ account }, { session }),

    async create(account: number, fields: Pick<WebhookDoc, 'url' | 'events' | 'description'>, secret: string, session?: ClientSession): Promise<WebhookDoc> {
      const now = nowSeconds();
      const insert = async (doc: WebhookDoc) => (await Webhook.create([doc], { session }))[0].toObject() as WebhookDoc;
      return insertWithSequenceId(Webhook, timeOrderedIds(connection, `webhooks:${account}`), (_id) => ({
        _id,
        account,
        ...fields,
        secrets: [{ key: secret, created_at: new Date(), expires_at: null }],
        enabled: true,
        rev: 0,
        disabled_reason: null,
        disabled_at: null,
        created_time: now,
        updated_time: now,
      }), { insert });
    },

    /** The account's webhooks by id, after `afterId`, `limit` at most. */
    list: (account: number, limit: number, afterId?: number) =>
      Webhook.find({ account, ...(afterId !== undefined && { _id: { $gt: afterId } }) })
        .sort({ _id: 1 })
        .limit(limit)
        .lean<WebhookDoc[]>(),

    get: (account: number, id: number) => Webhook.findOne(mine(account, id)).lean<WebhookDoc>(),

    /** Applies the changes; enabling clears the disabled reason. The webhook after, or null. */
    update(account: number, id: number, changes: WebhookChanges): Promise<WebhookDoc | null> {
      const enabling = changes.enabled === true ? { disabled_reason: null, disabled_at: null } : {};
      const disabling = changes.enabled === false ? { disabled_reason: null, disabled_at: new Date() } : {};
      return Webhook.findOneAndUpdate(mine(account, id), { $set: { ...changes, ...enabling, ...disabling, updated_time: nowSeconds() } }, { returnDocument: 'after' }).lean<WebhookDoc>();
    },

    remove: async (account: number, id: number) => (await Webhook.deleteOne(mine(account, id))).deletedCount === 1,

    /**
     * Makes `secret` the current one; the previous ones sign on until `windowEnd` (or their own
     * earlier end), and those whose window is over are dropped. The webhook after, or null.
     */
    async rotate(account: number, id: number, secret: string, windowEnd: Date): Promise<WebhookDoc | null> {
      for (let attempt = 0; attempt < 5; attempt++) {
        const current = await Webhook.findOne(mine(account, id)).lean<WebhookDoc>();
        if (!current) return null;
        const now = Date.now();
        const previous: WebhookSecret[] = current.secrets
          .filter((s) => s.expires_at === null || s.expires_at.getTime() > now)
          .map((s) => ({ key: s.key, created_at: s.created_at, expires_at: s.expires_at && s.expires_at < windowEnd ? s.expires_at : windowEnd }));
        const secrets = [...previous, { key: secret, created_at: new Date(now), expires_at: null }].slice(-MAX_SECRETS);
        // compare-and-set: of two rotations at once, the second reads again and keeps the first's secret in its window
        const rotated = await Webhook.findOneAndUpdate(
          { ...mine(account, id), rev: current.rev },
          { $set: { secrets, updated_time: nowSeconds() }, $inc: { rev: 1 } },
          { returnDocument: 'after' },
        ).lean<WebhookDoc>();
        if (rotated?.secrets.at(-1)?.key === secret) return rotated;
      }
      throw new Error(`webhook ${id}: the secret kept changing while it was rotated`);
    },

    /** Any account's webhook (the delivery worker). */
    byId: (id: number) => Webhook.findById(id).lean<WebhookDoc>(),

    /** Disables an enabled webhook with the reason; the webhook after, or null when it was not enabled (or is gone). */
    disable: (id: number, reason: string) =>
      Webhook.findOneAndUpdate({ _id: id, enabled: true }, { $set: { enabled: false, disabled_reason: reason, disabled_at: new Date(), updated_time: nowSeconds() } }, { returnDocument: 'after' }).lean<WebhookDoc>(),
  };
}

export type WebhookRepository = ReturnType<typeof webhookRepository>;
